package access

import (
	"strings"

	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// Client is who the session is: the login user and the client's host
// (1142 and 1143 name these, as MariaDB does), and the account it runs
// as (1044, 1045, 1370 name the account's 'user'@'host').
type Client struct {
	User, Host string
}

// PasswordUser is a Grants that knows whether its login used a password
// (1045's "using password: YES|NO"); others count as YES.
type PasswordUser interface {
	UsedPassword() bool
}

// Err words d as MariaDB 10.11 does for the account g of client c.
func (d Denial) Err(g privilege.Grants, c Client) error {
	n := d.Need
	switch n.Scope {
	case OnTable, OnTriggerTable:
		return sqlerr.New(sqlerr.ErTableAccessDenied, "%s command denied to user '%s'@'%s' for table `%s`.`%s`", mariaNames(d.Missing), c.User, c.Host, d.DB, n.Name)
	case AnyOnTable:
		return sqlerr.New(sqlerr.ErTableAccessDenied, "%s command denied to user '%s'@'%s' for table `%s`.`%s`", n.Verb, c.User, c.Host, d.DB, n.Name)
	case OnColumn:
		return sqlerr.New(sqlerr.ErColumnAccessDenied, "SELECT command denied to user '%s'@'%s' for column '%s' in table '%s'", c.User, c.Host, n.Column, n.Name)
	case OnDatabase, AnyInDatabase:
		return sqlerr.New(sqlerr.ErDBAccessDenied, "Access denied for user '%s'@'%s' to database '%s'", g.User(), g.Host(), d.DB)
	case Global, AnyGlobal:
		return sqlerr.New(sqlerr.ErSpecificAccessDenied, "Access denied; you need (at least one of) the %s privilege(s) for this operation", mariaNames(d.Missing))
	case OnServer:
		used := "YES"
		if pu, ok := g.(PasswordUser); ok && !pu.UsedPassword() {
			used = "NO"
		}
		return sqlerr.New(sqlerr.ErAccessDenied, "Access denied for user '%s'@'%s' (using password: %s)", g.User(), g.Host(), used)
	case OnRoutine:
		return sqlerr.New(sqlerr.ErProcAccessDenied, "%s command denied to user '%s'@'%s' for routine '%s.%s'", n.Verb, g.User(), g.Host(), d.DB, n.Name)
	case SeeRoutine:
		return sqlerr.New(sqlerr.ErSPDoesNotExist, "%s %s does not exist", n.Verb, n.Name)
	}
	return sqlerr.New(sqlerr.ErSpecificAccessDenied, "Access denied; you need (at least one of) the ALL PRIVILEGES privilege(s) for this operation")
}

// Object is what d was refused on, for the error log: `db`.`t`, a
// database, a routine, or "global".
func (d Denial) Object() string {
	switch d.Need.Scope {
	case OnTable, OnTriggerTable, AnyOnTable, OnColumn, OnRoutine, SeeRoutine:
		return d.DB + "." + d.Need.Name
	case OnDatabase, AnyInDatabase:
		return d.DB
	}
	return "*.*"
}

// mariaOrder is the order MariaDB lists privileges in an error (its
// privilege bits' order), with its names.
var mariaOrder = []struct {
	p    privilege.Priv
	name string
}{
	{privilege.Select, "SELECT"}, {privilege.Insert, "INSERT"}, {privilege.Update, "UPDATE"},
	{privilege.Delete, "DELETE"}, {privilege.Create, "CREATE"}, {privilege.Drop, "DROP"},
	{privilege.Reload, "RELOAD"}, {privilege.Shutdown, "SHUTDOWN"}, {privilege.Process, "PROCESS"},
	{privilege.File, "FILE"}, {privilege.GrantOption, "GRANT"}, {privilege.References, "REFERENCES"},
	{privilege.Index, "INDEX"}, {privilege.Alter, "ALTER"}, {privilege.Super, "SUPER"},
	{privilege.CreateTmpTable, "CREATE TEMPORARY TABLES"}, {privilege.LockTables, "LOCK TABLES"},
	{privilege.Execute, "EXECUTE"}, {privilege.CreateView, "CREATE VIEW"}, {privilege.ShowView, "SHOW VIEW"},
	{privilege.CreateRoutine, "CREATE ROUTINE"}, {privilege.AlterRoutine, "ALTER ROUTINE"},
	{privilege.CreateUser, "CREATE USER"}, {privilege.Trigger, "TRIGGER"},
}

func mariaNames(p privilege.Priv) string {
	var b strings.Builder
	for _, m := range mariaOrder {
		if p&m.p != 0 {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(m.name)
		}
	}
	return b.String()
}
