// Package privilege names what an account may do and asks whether it may.
//
// It is the contract between the account catalog (which stores accounts
// and their GRANTs durably and answers for one account: Grants) and the
// statement checks (which work out what a statement needs and ask before
// it runs). It imports nothing of plrun, so both sides and every sql
// package may use it (layout rank 0).
//
// A nil Grants means "not checked": an embedded engine, the REPL and a
// procedure script run with every right, as a local superuser does. Only
// the server gives sessions an account (Session.SetAccount).
//
// Grants answers from the catalog's state at the moment of the call, so
// a GRANT or REVOKE takes effect at the next statement of a connected
// session, as MySQL's table- and database-level privileges do.
package privilege
