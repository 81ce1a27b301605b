// Package plrun is the embedding API of plrun, a database engine whose
// stored procedures are written in Lua and JavaScript, built for hot-row
// workloads (early lock release, async commit of procedures, group
// commit).
//
//	db, err := plrun.Open("./data", nil)
//	if err != nil { ... }
//	defer db.Close()
//	s := db.Session()
//	defer s.Close()
//	_, err = s.Exec(ctx, "CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL)")
//	_, err = s.Exec(ctx, "INSERT INTO t VALUES (?, ?)", 1, 0)
//	res, err := s.Query(ctx, "SELECT k FROM t WHERE id = ?", 1)
//	fmt.Println(res.Rows[0][0].String())
//
// Every call returns only once what it committed, and every version it
// read, is durable (per innodb_flush_log_at_trx_commit). Errors are
// *sqlerr.Error values carrying the MySQL error number and SQLSTATE.
//
// A DB is safe for concurrent use; a Session is one connection's state and
// must be used by one goroutine at a time.
package plrun
