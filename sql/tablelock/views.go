package tablelock

import (
	"github.com/plrun/plrun/sql/parse"
)

// Views and table locks, as in MySQL: LOCK TABLES v locks the view and,
// implicitly, the tables it reads (with the view's mode), and a statement
// that reads or writes through a view is held back by locks on those
// tables. A view is expanded only where locks are looked at — when a lock
// is taken, while some session holds one, and for what an open
// transaction holds — so a statement pays nothing for it otherwise.

// usedTable is one table a statement touches, through views resolved.
type usedTable struct {
	key   string // tableKey
	write bool
}

// maxViewDepth bounds the expansion of views over views.
const maxViewDepth = 16

// tablesOf resolves refs (unqualified names in db) to the tables they
// touch: a view stands for itself and for the tables of its SELECT, read
// or, when the statement writes the view, written.
func (l *Locks) tablesOf(refs []parse.TableRef, db string) []usedTable {
	out := make([]usedTable, 0, len(refs))
	l.appendTables(&out, refs, db, false, 0)
	return out
}

func (l *Locks) appendTables(out *[]usedTable, refs []parse.TableRef, db string, forceWrite bool, depth int) {
	for _, r := range refs {
		schema := r.Schema
		if schema == "" {
			schema = db
		}
		write := r.Write || forceWrite
		*out = append(*out, usedTable{key: tableKey(schema, r.Name), write: write})
		if depth >= maxViewDepth {
			continue
		}
		v := l.txns.Catalog().View(schema, r.Name)
		if v == nil {
			continue
		}
		p, err := l.plans.Get(v.Select, 0)
		if err != nil {
			continue // a view that no longer parses fails when it is used
		}
		l.appendTables(out, p.TableRefs(), v.DB, write, depth+1)
	}
}

// viewSpecs adds to specs the tables of the views they lock, each with
// its view's mode, marked ViaView: they hold other sessions back, and the
// session may use them by name too, as MariaDB lets it.
func (l *Locks) viewSpecs(specs []parse.LockSpec) []parse.LockSpec {
	out := specs
	for _, spec := range specs {
		if l.txns.Catalog().View(spec.Schema, spec.Name) == nil {
			continue
		}
		ref := parse.TableRef{Schema: spec.Schema, Name: spec.Name, Write: spec.Write}
		for _, t := range l.tablesOf([]parse.TableRef{ref}, spec.Schema)[1:] {
			schema, name := splitTableKey(t.key)
			out = append(out, parse.LockSpec{Schema: schema, Name: name, Write: spec.Write, ViaView: true})
		}
	}
	return out
}
