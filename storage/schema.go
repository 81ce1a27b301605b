package storage

import (
	"slices"
	"strings"

	"github.com/plrun/plrun/types"
)

// Column is one column of a table.
type Column struct {
	Name        string
	Type        types.ColType
	NotNull     bool
	HasDefault  bool
	Default     types.Value // when HasDefault; NULL allowed
	DefaultNow  bool        // DEFAULT CURRENT_TIMESTAMP
	OnUpdateNow bool        // ON UPDATE CURRENT_TIMESTAMP
	// NowFsp is n of DEFAULT / ON UPDATE CURRENT_TIMESTAMP(n): the
	// fractional digits the clock is read with (one for both, as MariaDB).
	NowFsp        int `json:",omitempty"`
	AutoIncrement bool
	Comment       string
}

// IndexDef is a PRIMARY, UNIQUE or secondary KEY.
type IndexDef struct {
	Name    string
	Cols    []int
	Desc    []bool `json:",omitempty"` // per column: declared DESC (shown; plrun's secondary indexes are hashed, so order is not kept)
	Prefix  []int  `json:",omitempty"` // per column: a plain key's prefix length (shown; the whole value is indexed, which finds the same rows)
	Using   string `json:",omitempty"` // USING BTREE / HASH as declared (shown, as MariaDB shows it)
	Primary bool
	Unique  bool
}

// PrefixAt is the prefix length of part j (0: the whole value).
func (ix *IndexDef) PrefixAt(j int) int {
	if j < len(ix.Prefix) {
		return ix.Prefix[j]
	}
	return 0
}

// UniquePrefix reports a UNIQUE key with a prefix part: its uniqueness is
// of the prefixes (IndexKey cuts the values), so its hash keys are not
// those of the values and the planner does not look rows up by it.
func (ix *IndexDef) UniquePrefix() bool {
	return ix.Unique && slices.ContainsFunc(ix.Prefix, func(n int) bool { return n > 0 })
}

// KeyPart is value v of part j as the key holds it: cut to the part's
// prefix (characters of a string, bytes of a byte string) when it has one.
func (ix *IndexDef) KeyPart(j int, v types.Value) types.Value {
	if n := ix.PrefixAt(j); n > 0 {
		return types.PrefixOf(v, n)
	}
	return v
}

// KeyEntry is how MySQL's error 1062 names a key of d and the value vals
// give it: the key's name (PRIMARY for the primary key, also idx < 0) and
// its parts joined by '-', each cut to the part's prefix.
func (d *TableDef) KeyEntry(idx int, vals []types.Value) (name, entry string) {
	ix := &IndexDef{Name: "PRIMARY", Cols: d.PrimaryKey()}
	if idx >= 0 && idx < len(d.Indexes) && !d.Indexes[idx].Primary {
		ix = &d.Indexes[idx]
	}
	parts := make([]string, len(ix.Cols))
	for j, c := range ix.Cols {
		parts[j] = ix.KeyPart(j, vals[c]).String()
	}
	return ix.Name, strings.Join(parts, "-")
}

// TableDef is a table's schema: what DDL records and snapshots carry.
type TableDef struct {
	ID      uint64
	DB      string
	Name    string
	Columns []Column
	Indexes []IndexDef // the primary key, if any, is Indexes[0]
	Engine  string
	Charset string
	Collate string
	Comment string
	// ForeignKeys are the table's FOREIGN KEYs (it is their child);
	// Checks its CHECK constraints, in the order SHOW CREATE TABLE prints
	// them. Both are absent from snapshots written before they existed.
	ForeignKeys []ForeignKey `json:",omitempty"`
	Checks      []Check      `json:",omitempty"`
	// Temporary: a session's CREATE TEMPORARY TABLE, never in the
	// catalog, the log or a snapshot.
	Temporary bool `json:"-"`
	// Created is when CREATE TABLE (or TRUNCATE) made the table, in Unix
	// seconds: information_schema.TABLES.CREATE_TIME. 0 for a table
	// created before plrun kept it.
	Created int64 `json:",omitempty"`
	// TimestampZone is where the table keeps its TIMESTAMP values
	// (timestamps.go): UTC, SYSTEM for a table of an older version, ""
	// for a transient table.
	TimestampZone string `json:",omitempty"`
}

// ColumnIndex returns the position of the named column (case-insensitive).
func (d *TableDef) ColumnIndex(name string) int {
	for i := range d.Columns {
		if strings.EqualFold(d.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}

// PrimaryKey returns the primary key's columns, or nil if the table has a
// hidden row id instead.
func (d *TableDef) PrimaryKey() []int {
	if len(d.Indexes) > 0 && d.Indexes[0].Primary {
		return d.Indexes[0].Cols
	}
	return nil
}

// AutoIncColumn returns the AUTO_INCREMENT column or -1.
func (d *TableDef) AutoIncColumn() int {
	for i := range d.Columns {
		if d.Columns[i].AutoIncrement {
			return i
		}
	}
	return -1
}
