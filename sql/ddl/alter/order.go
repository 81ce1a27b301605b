package alter

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// orderRows is ALTER TABLE ... ORDER BY, decided on the new table as
// MariaDB decides it. InnoDB keeps rows in the order of the clustered
// index — the PRIMARY KEY, else the first UNIQUE key of NOT NULL columns —
// so with one MariaDB copies the table, ignores the order (not even its
// columns are looked up) and warns 1105. Without one the rows are kept in
// insertion order, and the copy puts them in the order of the old table's
// columns named (shape.Order, which replay follows too; a column only the
// new table has is 1054).
func (p *alterPlan) orderRows(def *storage.TableDef, shape *storage.Reshape) error {
	if p.orderBy == nil {
		return nil
	}
	if def.PrimaryKey() != nil || hasNotNullUnique(def) {
		p.s.Warn(sqlerr.ErUnknown, "ORDER BY ignored as there is a user-defined clustered index in the table '%s'", p.old.Def.Name)
		return nil
	}
	shape.Order = nil
	for _, it := range p.orderBy {
		name := it.Column.Name.O
		c := p.old.Def.ColumnIndex(name)
		if c < 0 || (it.Column.Table.O != "" && !strings.EqualFold(it.Column.Table.O, p.old.Def.Name)) {
			return sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'ORDER BY'", name)
		}
		shape.Order = append(shape.Order, storage.SortKey{Col: c, Desc: it.Desc})
	}
	return nil
}
