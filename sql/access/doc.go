// Package access works out what a statement needs of an account and asks
// before the statement runs: the checks half of plrun's privileges (the
// account catalog, which answers privilege.Grants, is the other half).
//
// Needs maps a parsed statement to the privilege checks it makes
// (classify*.go: one case per statement kind the session's dispatch
// runs; a kind it does not know needs Unknown, which no account holds:
// a checked session is refused what is not classified, never allowed by
// default). The checks are computed once per parse (parse.Stmt.Access)
// with the session's database left as "", so Check resolves them per
// call without allocating: a point SELECT costs one Grants.Allowed call.
//
// Check asks the Grants and returns the first need refused; Denial.Err
// words it as MariaDB 10.11 does (deny.go): 1142 for a table, 1143 for a
// column, 1044 for a database, 1227 for a global privilege, 1045 for a
// global grant or LOAD DATA INFILE, 1370 for a routine, 1305 for a
// routine the account may not see.
//
// What is decided at run time and not here: KILL of another account's
// session (SUPER, 1095), the rows SHOW and information_schema list
// (Sees*), a stored function's EXECUTE (at its call), and whose rights a
// routine or trigger body runs with (its DEFINER's, see sql/call.go).
//
// A view is checked as a table (SELECT on the view); the view's own
// tables are read with the rights its creator was checked for at CREATE
// VIEW (SQL SECURITY DEFINER, MySQL's default), and are not checked
// again per use.
//
// The package holds no state; every function is safe for concurrent use.
package access
