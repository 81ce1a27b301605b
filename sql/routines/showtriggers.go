package routines

import (
	"regexp"
	"sort"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/show"
	"github.com/plrun/plrun/sqlerr"
)

// eventRank orders SHOW TRIGGERS' rows of a table as MariaDB does.
var eventRank = map[string]int{"INSERT": 0, "UPDATE": 1, "DELETE": 2}

// ShowTriggers is SHOW TRIGGERS [FROM db] [LIKE 'pattern'] (the pattern
// matches the table name, as in MariaDB).
func (r DDL) ShowTriggers(db, like string) (*exec.Result, error) {
	if db == "" {
		db = r.h.Statement().DB
	}
	db, err := r.routineDB(db)
	if err != nil {
		return nil, err
	}
	pc := r.c.Procs
	trs := pc.ListTriggersIn(db)
	order := map[*procs.Trigger]int{}
	for _, t := range trs {
		order[t] = pc.ActionOrder(t)
	}
	sort.SliceStable(trs, func(i, j int) bool {
		a, b := trs[i], trs[j]
		if a.Def.Table != b.Def.Table {
			return a.Def.Table < b.Def.Table
		}
		if a.Def.Event != b.Def.Event {
			return eventRank[a.Def.Event] < eventRank[b.Def.Event]
		}
		if a.Def.Timing != b.Def.Timing {
			return a.Def.Timing == "BEFORE"
		}
		return order[a] < order[b]
	})
	var rows [][]string
	for _, t := range trs {
		if like != "" && !expr.LikeMatch(like, t.Def.Table) {
			continue
		}
		rows = append(rows, []string{t.Def.Name, t.Def.Event, t.Def.Table, t.Def.Body, t.Def.Timing, t.Created, t.SQLMode, t.Definer,
			"utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"})
	}
	return show.StringRows([]string{"Trigger", "Event", "Table", "Statement", "Timing", "Created", "sql_mode", "Definer",
		"character_set_client", "collation_connection", "Database Collation"}, rows), nil
}

var reCreateHead = regexp.MustCompile(`(?is)^create\s+`)

// ShowCreateTrigger is SHOW CREATE TRIGGER [db.]name: the statement as
// written, with the definer MariaDB adds.
func (r DDL) ShowCreateTrigger(name string) (*exec.Result, error) {
	db, n := SplitName(name, r.h.Statement().DB)
	db, err := r.routineDB(db)
	if err != nil {
		return nil, err
	}
	t, ok := r.c.Procs.GetTrigger(db, n)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErTrgDoesNotExist, "Trigger does not exist")
	}
	text := t.Text
	if loc := reCreateHead.FindStringIndex(text); loc != nil && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(text[loc[1]:])), "DEFINER") {
		text = "CREATE DEFINER=`root`@`localhost` " + text[loc[1]:]
	}
	return show.StringRows([]string{"Trigger", "sql_mode", "SQL Original Statement", "character_set_client", "collation_connection", "Database Collation", "Created"},
		[][]string{{t.Def.Name, t.SQLMode, text, "utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci", t.Created}}), nil
}
