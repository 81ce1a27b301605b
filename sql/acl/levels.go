package acl

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// What each grant level can hold, as MySQL's db, tables_priv and
// procs_priv tables.
const (
	dbPrivs = privilege.Select | privilege.Insert | privilege.Update | privilege.Delete |
		privilege.Create | privilege.Drop | privilege.Alter | privilege.Execute | privilege.Index |
		privilege.GrantOption | privilege.LockTables | privilege.CreateRoutine | privilege.AlterRoutine |
		privilege.Trigger | privilege.CreateView | privilege.ShowView | privilege.CreateTmpTable |
		privilege.References
	tablePrivs = privilege.Select | privilege.Insert | privilege.Update | privilege.Delete |
		privilege.Create | privilege.Drop | privilege.Alter | privilege.Index | privilege.GrantOption |
		privilege.Trigger | privilege.CreateView | privilege.ShowView | privilege.References
	routinePrivs = privilege.Execute | privilege.AlterRoutine | privilege.GrantOption
)

// level is where a GRANT or REVOKE applies.
type level struct {
	kind     ast.GrantLevelType
	db, name string
	routine  bool // PROCEDURE or FUNCTION db.name
	fn       bool
}

// levelOf resolves ON *.* | * | db.* | db.t | t | PROCEDURE db.p against
// the session's default database.
func levelOf(env *Env, obj ast.ObjectTypeType, l *ast.GrantLevel) (level, error) {
	lv := level{kind: l.Level, db: l.DBName, name: l.TableName}
	if lv.kind != ast.GrantLevelGlobal && lv.db == "" {
		if env.DB == "" {
			return level{}, sqlerr.New(sqlerr.ErNoDB, "No database selected")
		}
		lv.db = env.DB
	}
	if obj == ast.ObjectTypeProcedure || obj == ast.ObjectTypeFunction {
		if lv.kind != ast.GrantLevelTable {
			return level{}, errIllegalGrant
		}
		lv.routine, lv.fn = true, obj == ast.ObjectTypeFunction
	}
	return lv, nil
}

var errIllegalGrant = sqlerr.New(sqlerr.ErIllegalGrantForTable, "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used")

// mask is what lv can hold.
func (lv level) mask() privilege.Priv {
	switch {
	case lv.routine:
		return routinePrivs
	case lv.kind == ast.GrantLevelGlobal:
		return privilege.All | privilege.GrantOption
	case lv.kind == ast.GrantLevelDB:
		return dbPrivs
	}
	return tablePrivs
}

// privsOf is the privilege list of a GRANT or REVOKE at lv (ALL is
// everything lv can hold; USAGE nothing), refusing what plrun has no
// privilege for and what the level cannot hold (1221, 1144).
func privsOf(elems []*ast.PrivElem, lv level, withGrant bool) (privilege.Priv, error) {
	var p privilege.Priv
	for _, e := range elems {
		if len(e.Cols) > 0 {
			return 0, unsupported("column privileges")
		}
		switch e.Priv {
		case mysql.UsagePriv:
			continue
		case mysql.AllPriv:
			p |= lv.mask() &^ privilege.GrantOption
			continue
		}
		name := e.Priv.String()
		if e.Priv == mysql.ExtendedPriv {
			name = e.Name
		}
		q, ok := privilege.Parse(name)
		if !ok {
			return 0, unsupported("the " + name + " privilege")
		}
		if q&lv.mask() == 0 {
			if lv.kind == ast.GrantLevelDB && !lv.routine {
				return 0, sqlerr.New(sqlerr.ErWrongUsage, "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES")
			}
			return 0, errIllegalGrant
		}
		p |= q
	}
	if withGrant {
		p |= privilege.GrantOption
	}
	return p, nil
}

// grantAt is the account's grant at lv (nil if none), for reading.
func (a *Account) grantAt(lv level) *Grant {
	switch {
	case lv.routine:
		return a.Routines[routineKey(lv.db, lv.name, lv.fn)]
	case lv.kind == ast.GrantLevelDB:
		return a.DBs[dbKey(lv.db)]
	}
	return a.Tables[tableKey(lv.db, lv.name)]
}

// setAt stores p at lv on an editable account (p 0 removes the grant).
func (a *Account) setAt(lv level, p privilege.Priv) {
	if lv.kind == ast.GrantLevelGlobal {
		a.Global = p
		return
	}
	m, k := &a.Tables, tableKey(lv.db, lv.name)
	switch {
	case lv.routine:
		m, k = &a.Routines, routineKey(lv.db, lv.name, lv.fn)
	case lv.kind == ast.GrantLevelDB:
		m, k = &a.DBs, dbKey(lv.db)
	}
	if p == 0 {
		delete(*m, k)
		return
	}
	if *m == nil {
		*m = map[string]*Grant{}
	}
	if g := (*m)[k]; g != nil {
		g.Priv = p
		return
	}
	(*m)[k] = &Grant{DB: lv.db, Name: lv.name, Func: lv.fn, Priv: p, Seq: a.nextSeq()}
}

// heldAt is what a holds at lv.
func (a *Account) heldAt(lv level) privilege.Priv {
	if lv.kind == ast.GrantLevelGlobal {
		return a.Global
	}
	if g := a.grantAt(lv); g != nil {
		return g.Priv
	}
	return 0
}

// nextSeq is one past the newest grant's Seq.
func (a *Account) nextSeq() uint64 {
	var n uint64
	for _, m := range []map[string]*Grant{a.DBs, a.Tables, a.Routines} {
		for _, g := range m {
			n = max(n, g.Seq)
		}
	}
	return n + 1
}
