package infoschema

import (
	"fmt"
	"github.com/cockroachdb/apd/v3"
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// plrun's own views of its lock manager and transactions, modelled on
// InnoDB's INNODB_LOCKS, INNODB_LOCK_WAITS and INNODB_TRX:
//   - PLRUN_LOCKS: every row lock held or waited for (lock_status GRANTED
//     or WAITING), with its table, key, transaction and session.
//   - PLRUN_LOCK_WAITS: one row per waiter: who waits for which lock held
//     by whom, since when.
//   - PLRUN_TRX: the open transactions, with their session, state
//     (RUNNING or LOCK WAIT), start time and age, and rows changed.
// plrun's locks are exclusive row locks (lock_mode X, lock_type RECORD);
// a unique-key lock (two inserts of one value) names its unique index.

func init() {
	ub := ubigint(21)
	register(&table{name: "PLRUN_LOCKS", cols: []column{
		{"lock_id", varchar(81), true}, {"lock_trx_id", ub, true}, {"lock_session_id", ub, false},
		{"lock_mode", varchar(8), true}, {"lock_type", varchar(8), true}, {"lock_table", varchar(1024), true},
		{"lock_index", varchar(1024), false}, {"lock_data", varchar(8192), false}, {"lock_status", varchar(8), true},
		{"wait_started", datetime, false}, {"wait_seconds", ub, false},
	}, rows: locksRows})
	register(&table{name: "PLRUN_LOCK_WAITS", cols: []column{
		{"requesting_trx_id", ub, true}, {"requesting_session_id", ub, false}, {"requested_lock_id", varchar(81), true},
		{"blocking_trx_id", ub, true}, {"blocking_session_id", ub, false}, {"blocking_lock_id", varchar(81), true},
		{"lock_table", varchar(1024), true}, {"lock_index", varchar(1024), false}, {"lock_data", varchar(8192), false},
		{"wait_started", datetime, true}, {"wait_seconds", ub, true},
	}, rows: lockWaitsRows})
	register(&table{name: "PLRUN_TRX", cols: []column{
		{"trx_id", ub, true}, {"trx_state", varchar(13), true}, {"trx_started", datetime, true},
		{"trx_age_seconds", ub, true}, {"trx_requested_lock_id", varchar(81), false}, {"trx_wait_started", datetime, false},
		{"trx_mysql_thread_id", ub, true}, {"trx_query", varchar(1024), false}, {"trx_rows_modified", ub, true},
		{"trx_isolation_level", varchar(16), true}, {"trx_is_read_only", intw(1), true},
	}, rows: trxRows})
}

// lockPlace is where a lock key points: its table, index and key values.
type lockPlace struct {
	id, table, index, data string
}

// placeOf decodes a lock manager key ("<table id>/<key>" or "<table
// id>/u<index>/<key>").
func placeOf(cat *storage.Catalog, key string) lockPlace {
	idText, rest, _ := strings.Cut(key, "/")
	p := lockPlace{table: "`?`", index: "PRIMARY"}
	id, _ := strconv.ParseUint(idText, 10, 64)
	t := cat.TableByID(id)
	if t != nil {
		p.table = "`" + t.Def.DB + "`.`" + t.Def.Name + "`"
	}
	if u, ok := strings.CutPrefix(rest, "u"); ok && t != nil {
		if n, k, ok := strings.Cut(u, "/"); ok {
			if i, err := strconv.Atoi(n); err == nil && i < len(t.Def.Indexes) {
				p.index, rest = t.Def.Indexes[i].Name, k
			}
		}
	} else if t != nil && t.Def.PrimaryKey() == nil {
		p.index = "GEN_CLUST_INDEX" // InnoDB's name for the hidden row id
	}
	if p.index == "PRIMARY" || p.index == "GEN_CLUST_INDEX" || t == nil {
		p.data = rowKeyData(rest)
	} else {
		p.data = keyData(rest)
	}
	if p.index == "PRIMARY" && t != nil {
		// the row's own key values, as written (the key folds case)
		if r := t.Lookup(rest); r != nil {
			p.data = valuesData(r.PK)
		}
	}
	p.id = idText + ":" + p.index + ":" + p.data
	return p
}

// LockPlace is where a lock manager key points: its table
// (`db`.`t`), index and key values, as PLRUN_LOCKS shows them (SHOW
// ENGINE PLRUN STATUS, the error log).
func LockPlace(cat *storage.Catalog, key string) (table, index, data string) {
	p := placeOf(cat, key)
	return p.table, p.index, p.data
}

// keyData prints a key's values as InnoDB's lock_data does: numbers bare,
// strings quoted, comma-separated. The key is types.KeyString's encoding
// (a unique index's; a row's is rowKeyData's).
func keyData(k string) string {
	var vals []string
	for len(k) > 0 {
		switch k[0] {
		case 0:
			vals, k = append(vals, "NULL"), k[1:]
		case 's':
			end := strings.Index(k[1:], "\x00\x00")
			if end < 0 {
				return fmt.Sprintf("%q", k)
			}
			vals, k = append(vals, "'"+k[1:1+end]+"'"), k[1+end+2:]
		default: // 'n': the number's text; 'd': a decimal's, in e-notation
			end := strings.IndexByte(k, 0)
			if end < 0 {
				return fmt.Sprintf("%q", k)
			}
			text := k[1:end]
			if d, _, err := apd.NewFromString(text); err == nil && k[0] == 'd' {
				text = d.Text('f')
			}
			vals, k = append(vals, text), k[end+1:]
		}
	}
	return strings.Join(vals, ",")
}

// rowKeyData prints a row's key (storage.KeyOf: types.AppendKey's
// encoding) as keyData prints an index key: strings as their folded text.
func rowKeyData(k string) string {
	b := []byte(k)
	var vals []types.Value
	for len(b) > 0 {
		v, rest, err := types.DecodeKeyShown(b)
		if err != nil {
			return fmt.Sprintf("%q", k)
		}
		vals, b = append(vals, v), rest
	}
	return valuesData(vals)
}

// valuesData prints key values as keyData does.
func valuesData(vs []types.Value) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		switch {
		case v.IsNull():
			out[i] = "NULL"
		case v.K == types.KindString:
			out[i] = "'" + v.S + "'"
		default:
			out[i] = v.String()
		}
	}
	return strings.Join(out, ",")
}

// sessionsOfTrx maps each open transaction to its session.
func sessionsOfTrx(src Source) (map[uint64]uint64, []SessionInfo) {
	ps := src.Processlist()
	m := map[uint64]uint64{}
	for _, p := range ps {
		for _, t := range p.Trx {
			m[t.ID] = p.ID
		}
	}
	return m, ps
}

func sessionOf(m map[uint64]uint64, trx uint64) types.Value {
	if s, ok := m[trx]; ok {
		return u64(s)
	}
	return null
}

func waitCols(since time.Time, now time.Time) (types.Value, types.Value) {
	return types.TimeValue(since.Truncate(time.Second)), u64(uint64(max(0, now.Sub(since)/time.Second)))
}

func locksRows(src Source, f filter) [][]types.Value {
	sess, _ := sessionsOfTrx(src)
	cat, now := src.Catalog(), time.Now()
	var out [][]types.Value
	for _, l := range src.Locks() {
		p := placeOf(cat, l.Key)
		row := func(trx uint64, status string, started, secs types.Value) []types.Value {
			return []types.Value{str(strconv.FormatUint(trx, 10) + ":" + p.id), u64(trx), sessionOf(sess, trx), str("X"),
				str("RECORD"), str(p.table), str(p.index), str(p.data), str(status), started, secs}
		}
		out = append(out, row(l.Holder, "GRANTED", null, null))
		for _, w := range l.Waiters {
			started, secs := waitCols(w.Since, now)
			out = append(out, row(w.TrxID, "WAITING", started, secs))
		}
	}
	return out
}

func lockWaitsRows(src Source, f filter) [][]types.Value {
	sess, _ := sessionsOfTrx(src)
	cat, now := src.Catalog(), time.Now()
	var out [][]types.Value
	for _, l := range src.Locks() {
		p := placeOf(cat, l.Key)
		for _, w := range l.Waiters {
			started, secs := waitCols(w.Since, now)
			out = append(out, []types.Value{u64(w.TrxID), sessionOf(sess, w.TrxID), str(strconv.FormatUint(w.TrxID, 10) + ":" + p.id),
				u64(l.Holder), sessionOf(sess, l.Holder), str(strconv.FormatUint(l.Holder, 10) + ":" + p.id),
				str(p.table), str(p.index), str(p.data), started, secs})
		}
	}
	return out
}

func trxRows(src Source, f filter) [][]types.Value {
	_, ps := sessionsOfTrx(src)
	cat, now := src.Catalog(), time.Now()
	type wait struct {
		lockID string
		since  time.Time
	}
	waits := map[uint64]wait{}
	for _, l := range src.Locks() {
		p := placeOf(cat, l.Key)
		for _, w := range l.Waiters {
			waits[w.TrxID] = wait{strconv.FormatUint(w.TrxID, 10) + ":" + p.id, w.Since}
		}
	}
	var out [][]types.Value
	for _, p := range ps {
		for _, t := range p.Trx {
			state, lockID, waitStarted := "RUNNING", null, null
			if w, ok := waits[t.ID]; ok {
				state, lockID, waitStarted = "LOCK WAIT", str(w.lockID), types.TimeValue(w.since.Truncate(time.Second))
			}
			ro := int64(0)
			if t.ReadOnly {
				ro = 1
			}
			out = append(out, []types.Value{u64(t.ID), str(state), types.TimeValue(t.Started.Truncate(time.Second)),
				u64(uint64(max(0, now.Sub(t.Started)/time.Second))), lockID, waitStarted, u64(p.ID), strOrNull(p.Info),
				u64(uint64(t.RowsChanged)), str(t.Isolation), i64(ro)})
		}
	}
	return out
}
