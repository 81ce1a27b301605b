// Package mysqlload drives a MySQL server with looping clients, for the
// shutdown tests of the server and of `plrun serve`: each client updates
// its own row until a statement fails, and the test learns how many
// updates each client was told succeeded and how each one ended.
package mysqlload

import (
	gosql "database/sql"
	"errors"
	"fmt"
	"sync"

	mysqldrv "github.com/go-sql-driver/mysql"
)

// Updaters are clients looping `UPDATE f SET k = k + 1 WHERE id = i`
// (i = 1..n) over dsn, until Wait says they all stopped.
type Updaters struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	acked   []int
	endings map[string]int
}

// maxUpdates bounds each client's loop (load loops are bounded).
const maxUpdates = 1_000_000

// StartUpdaters starts n clients.
func StartUpdaters(dsn string, n int) *Updaters {
	u := &Updaters{acked: make([]int, n+1), endings: map[string]int{}}
	for id := 1; id <= n; id++ {
		u.wg.Add(1)
		go u.run(dsn, id)
	}
	return u
}

func (u *Updaters) run(dsn string, id int) {
	defer u.wg.Done()
	db, err := gosql.Open("mysql", dsn)
	if err != nil {
		u.end(err)
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for n := 0; n < maxUpdates; n++ {
		if _, err := db.Exec("UPDATE f SET k = k + 1 WHERE id = ?", id); err != nil {
			u.end(err)
			return
		}
		u.mu.Lock()
		u.acked[id]++
		u.mu.Unlock()
	}
}

// end records how a client stopped: "error N" for a MySQL error, "lost
// connection" for anything else.
func (u *Updaters) end(err error) {
	ending := "lost connection"
	var me *mysqldrv.MySQLError
	if errors.As(err, &me) {
		ending = fmt.Sprintf("error %d", me.Number)
	}
	u.mu.Lock()
	u.endings[ending]++
	u.mu.Unlock()
}

// Wait waits for every client to stop and returns the updates each was
// told succeeded (index = row id) and how many ended each way.
func (u *Updaters) Wait() (acked []int, endings map[string]int) {
	u.wg.Wait()
	return u.acked, u.endings
}
