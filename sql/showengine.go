package sql

import (
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/enginestatus"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// showEngine is SHOW ENGINE name {STATUS|MUTEX|LOGS}. PLRUN STATUS is
// plrun's report (sql/enginestatus); INNODB STATUS, which monitoring
// tools send, is the same text under InnoDB's name (plrun's one engine
// is InnoDB, SHOW ENGINES says). MUTEX and LOGS are empty, as MariaDB
// 10.11's InnoDB answers them; any other engine is 1286.
func (s *Session) showEngine(name, what string) (*exec.Result, error) {
	var typ string
	switch strings.ToLower(name) {
	case "plrun":
		typ = "plrun"
	case "innodb", "all":
		typ = "InnoDB"
	default:
		return nil, sqlerr.New(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", name)
	}
	// described as MariaDB 10.11 describes them (NOT NULL, decimals 39)
	r := &exec.Result{Columns: []exec.Column{
		{Name: "Type", Type: types.ColType{Base: types.TVarchar, Length: 10}, NotNull: true, Expr: true},
		{Name: "Name", Type: types.ColType{Base: types.TVarchar, Length: 512}, NotNull: true, Expr: true},
		{Name: "Status", Type: types.ColType{Base: types.TVarchar, Length: 10}, NotNull: true, Expr: true}}}
	if what != "status" {
		return r, nil
	}
	text := s.database.engineReport().Text()
	r.Rows = [][]types.Value{{types.StringValue(typ), types.StringValue(""), types.StringValue(text)}}
	return r, nil
}

// engineReport gathers SHOW ENGINE PLRUN STATUS's report now.
func (db *Database) engineReport() *enginestatus.Report {
	ix := db.trxIndex()
	r := &enginestatus.Report{Now: time.Now(), LockWaits: db.lockWaits(ix), Deadlock: db.latestDeadlock.Load()}
	r.Pipeline, r.Checkpoint = db.Engine.EngineStatus()
	ls, ts, hs := db.Txns.Locks.Stats(), db.Txns.Stats(), db.Hot.Stats()
	maxDeps, _ := strconv.ParseInt(db.Globals.Get("_max_elr_dependent_trx_count"), 10, 64)
	r.ELR = enginestatus.ELR{On: db.ELR.Load(), MaxDependents: maxDeps,
		EarlyReleases: ls.EarlyReleases, DependentWaits: ls.DependentLimitWaits, ReaderWaits: ts.ReaderWaits}
	r.HotRow = enginestatus.HotRow{On: db.Hotspot.Load(), Groups: hs.Groups, Followers: hs.Followers, Largest: hs.MaxGroupSize}
	return r
}
