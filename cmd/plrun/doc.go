// Command plrun is plrun's front door: a MySQL-client-like REPL on an
// embedded data folder, a batch runner for -e and piped scripts, the seed
// benchmarks, and (when built in) the MySQL protocol server.
//
//	plrun [--data DIR] [--procs DIR] [--set name=value ...] [-e "SQL; SQL"]
//	plrun bench hotrow   [--threads 50 --updates 2000 --elr on|off|both --sync-delay 30ms --json]
//	plrun bench plcommit [--lang lua|js|both --async on|off|both --iterations 1000 --calls 5 --concurrency N --json]
//	plrun serve ...
//
// Modes. With -e, or with a script on standard input, plrun runs the
// statements in batch mode, as `mysql --batch` does: result sets are
// printed tab-separated under a header line, OK results print nothing,
// and the first failing statement prints its ERROR line on standard error
// and ends plrun with status 1. When standard input is a terminal (or with
// -i), plrun is a REPL: line editing and history (readline), statements
// ended by ';' across as many lines as they take, boxed tables and
// "N rows in set (0.00 sec)", errors printed and the session goes on.
//
// Statements are cut with parse.SplitStatements (sql/parse), so a ';' inside quotes,
// comments or a $$ ... $$ procedure body does not end a statement. Client
// commands, recognised at the start of a statement: exit, quit, \q,
// source FILE (or \. FILE), help (\h), and \c at the end of a line to
// discard the statement being typed; \G instead of ';' prints rows
// vertically.
//
// Everything runs through run(args, stdin, stdout, stderr), which returns
// the exit status: main only wires it to the process, and the tests call
// it in-process.
package main
