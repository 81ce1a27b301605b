package exec

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
)

// The bits of a table column's definition in a result set that come from
// its table (how MySQL's protocol numbers them): the keys it is part of,
// and how INSERT treats it. An expression has none of them.
const (
	FlagPriKey        uint16 = 2
	FlagUniqueKey     uint16 = 4
	FlagMultipleKey   uint16 = 8
	FlagAutoIncrement uint16 = 512
	FlagNoDefault     uint16 = 4096
	FlagOnUpdateNow   uint16 = 8192
	FlagPartKey       uint16 = 16384
)

// fieldColumn describes column idx of def read bare in a select list,
// under the table alias; nullable is a LEFT JOIN's inner side.
func fieldColumn(def *storage.TableDef, idx int, name, alias string, nullable bool) Column {
	c := def.Columns[idx]
	return Column{Name: name, OrgName: c.Name, Table: alias, OrgTable: def.Name, DB: def.DB,
		Type: c.Type, NotNull: c.NotNull && !nullable, Flags: fieldFlags(def, idx)}
}

// fieldFlags are MariaDB's flags for column idx of def: PRI_KEY on the
// primary key's columns; on the first column of any other key
// UNIQUE_KEY for a one-column UNIQUE key, else MULTIPLE_KEY; PART_KEY on
// every column of every key; NO_DEFAULT_VALUE on a NOT NULL column INSERT
// cannot fill by itself.
func fieldFlags(def *storage.TableDef, idx int) uint16 {
	var f uint16
	c := def.Columns[idx]
	for _, ix := range def.Indexes {
		for pos, col := range ix.Cols {
			if col != idx {
				continue
			}
			f |= FlagPartKey
			switch {
			case ix.Primary:
				f |= FlagPriKey
			case pos == 0 && ix.Unique && len(ix.Cols) == 1:
				f |= FlagUniqueKey
			case pos == 0:
				f |= FlagMultipleKey
			}
		}
	}
	if c.AutoIncrement {
		f |= FlagAutoIncrement
	}
	if c.OnUpdateNow {
		f |= FlagOnUpdateNow
	}
	if c.NotNull && !c.HasDefault && !c.AutoIncrement && !c.DefaultNow {
		f |= FlagNoDefault
	}
	return f
}

// exprColumn describes a computed select-list column.
func exprColumn(name string, e *expr.Expr) Column {
	c := Column{Name: name, Type: e.Type, NotNull: e.NotNull, Expr: true, FixedDecimals: e.FixedDecimals}
	if v, ok := e.Literal(); ok && v.IsNull() {
		c.NullLiteral = true
	}
	return c
}
