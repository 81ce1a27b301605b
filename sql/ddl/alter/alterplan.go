package alter

import (
	"fmt"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/ddl/tabledef"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// alterPlan is what ALTER TABLE's specs make of the old table's schema:
// the new columns (each from an old column or filled) and keys, by column
// name until resolve turns them into the new TableDef and Reshape.
type alterPlan struct {
	pc   *procs.Catalog // the table's triggers follow a rename (triggers.go); nil for index changes
	s    *exec.State
	old  *storage.Table
	cols []planCol
	keys []planKey
	def  storage.TableDef // table-level fields of the new definition

	autoInc   uint64 // AUTO_INCREMENT = n (0: not given)
	renameTo  *ast.TableName
	rebuild   bool   // anything beyond a rename or keys' notes
	copyWhy   string // MariaDB would copy the rows (ALGORITHM=COPY): why, for 1846
	noCopyWhy string // what rules out ALGORITHM=INSTANT (1846's reason), if anything
	algorithm ast.AlgorithmType
	lockNone  bool
	dropped   []string              // columns dropped (shrinkKeys)
	keysSpec  bool                  // DISABLE / ENABLE KEYS among the specs
	rebuilds  bool                  // InnoDB rebuilds the clustered index: never INSTANT or NOCOPY (algorithm.go)
	orderBy   []*ast.AlterOrderItem // ORDER BY: MariaDB copies the rows (orderRows)
	keysAdded bool
	inline    []planKey  // keys declared in a column definition, to add once it is placed
	cons      consChange // FOREIGN KEYs and CHECKs dropped and added (altercons.go)
}

// addInline adds the keys the last column definitions declared.
func (p *alterPlan) addInline() error {
	keys := p.inline
	p.inline = nil
	for _, k := range keys {
		if err := p.addKey("", k.names, nil, k.Primary, k.Unique); err != nil {
			return err
		}
	}
	return nil
}

type planCol struct {
	storage.Column
	src int // old column, or -1 (added)
	// A spec names a column of the table as it was, and changes it once:
	// altered by MODIFY, CHANGE or RENAME COLUMN, defaulted by ALTER
	// COLUMN (MariaDB: 1054 for a second change).
	altered, defaulted bool
	redefined          bool // by MODIFY or CHANGE: a column-level CHECK of the old definition goes
}

type planKey struct {
	storage.IndexDef
	names []string // column names (IndexDef.Cols is set by resolve)
	orig  bool     // a key of the table as it was (DROP INDEX names only those)
}

func newAlterPlan(s *exec.State, old *storage.Table) *alterPlan {
	p := &alterPlan{s: s, old: old, def: *old.Def}
	for i, c := range old.Def.Columns {
		p.cols = append(p.cols, planCol{Column: c, src: i})
	}
	for _, ix := range old.Def.Indexes {
		k := planKey{IndexDef: ix, orig: true}
		k.Cols = nil
		k.Desc = append([]bool(nil), ix.Desc...)
		k.Prefix = append([]int(nil), ix.Prefix...)
		for _, c := range ix.Cols {
			k.names = append(k.names, old.Def.Columns[c].Name)
		}
		p.keys = append(p.keys, k)
	}
	return p
}

// note adds a Note to the statement's warnings.
func (p *alterPlan) note(code uint16, format string, args ...any) {
	p.s.StmtWarnings++
	if len(p.s.StmtNotes) < expr.MaxNotes {
		p.s.StmtNotes = append(p.s.StmtNotes, sqlerr.Note{Level: "Note", Code: code, Message: fmt.Sprintf(format, args...)})
	}
}

func (p *alterPlan) colIndex(name string) int {
	for i := range p.cols {
		if strings.EqualFold(p.cols[i].Name, name) {
			return i
		}
	}
	return -1
}

// original finds the column the table had under name, unless this ALTER
// has already changed it that way (forDefault: by ALTER COLUMN; else by
// MODIFY, CHANGE or RENAME), or -1.
func (p *alterPlan) original(name string, forDefault bool) int {
	for i := range p.cols {
		c := &p.cols[i]
		if c.src < 0 || !strings.EqualFold(p.old.Def.Columns[c.src].Name, name) {
			continue
		}
		if c.altered || (forDefault && c.defaulted) {
			return -1
		}
		return i
	}
	return -1
}

func (p *alterPlan) keyIndex(name string) int {
	for i := range p.keys {
		if strings.EqualFold(p.keys[i].Name, name) {
			return i
		}
	}
	return -1
}

func (p *alterPlan) unknownColumn(name string) error {
	return sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", name, p.old.Def.Name)
}

func notYet(what string) error {
	return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", what)
}

// apply applies one spec.
func (p *alterPlan) apply(sp *ast.AlterTableSpec) error {
	switch sp.Tp {
	case ast.AlterTableAddColumns:
		p.rebuild = true
		return p.addColumns(sp)
	case ast.AlterTableDropColumn:
		p.rebuild = true
		return p.dropColumn(sp)
	case ast.AlterTableModifyColumn, ast.AlterTableChangeColumn:
		p.rebuild = true
		old := sp.NewColumns[0].Name.Name.O
		if sp.OldColumnName != nil {
			old = sp.OldColumnName.Name.O
		}
		return p.modifyColumn(old, sp.NewColumns[0], sp.Position)
	case ast.AlterTableRenameColumn:
		p.rebuild = true
		return p.renameColumn(sp.OldColumnName.Name.O, sp.NewColumnName.Name.O)
	case ast.AlterTableAlterColumn:
		p.rebuild = true
		return p.alterDefault(sp.NewColumns[0])
	case ast.AlterTableAddConstraint:
		p.rebuild = true
		return p.addConstraint(sp.Constraint)
	case ast.AlterTableDropIndex:
		p.rebuild = true
		return p.dropKey(sp.Name, sp.IfExists)
	case ast.AlterTableDropPrimaryKey:
		p.rebuild = true
		return p.dropKey("PRIMARY", false)
	case ast.AlterTableRenameIndex:
		p.rebuild = true
		return p.renameKey(sp.FromKey.O, sp.ToKey.O)
	case ast.AlterTableRenameTable:
		p.renameTo = sp.NewTable
		return nil
	case ast.AlterTableOption:
		p.rebuild = true
		return p.tableOptions(sp.Options)
	case ast.AlterTableLock:
		p.lockNone = sp.LockType == ast.LockTypeNone
		return nil
	case ast.AlterTableAlgorithm:
		p.algorithm = sp.Algorithm
		return nil
	case ast.AlterTableForce:
		p.rebuild = true
		p.rebuilds = true
		return nil
	case ast.AlterTableOrderByColumns:
		p.rebuild = true
		p.orderBy = sp.OrderByList
		return nil
	case ast.AlterTableEnableKeys, ast.AlterTableDisableKeys:
		// InnoDB has no disabled keys: MariaDB's note, and nothing else.
		// DISABLE KEYS concerns non-unique keys only, and MariaDB notes it
		// only when there is one to disable.
		p.keysSpec = true
		if sp.Tp == ast.AlterTableDisableKeys && !p.hasPlainKey() {
			return nil
		}
		p.note(sqlerr.ErIllegalHaCreateOption, "Storage engine InnoDB of the table `%s`.`%s` doesn't have this option", p.old.Def.DB, p.old.Def.Name)
		return nil
	case ast.AlterTableDropForeignKey:
		p.rebuild = true
		p.cons.drops = append(p.cons.drops, consDrop{name: sp.Name, fk: true})
		return nil
	case ast.AlterTableDropCheck:
		// DROP CONSTRAINT (MariaDB) or DROP CHECK (MySQL 8): the parser
		// gives both as one; either drops a CHECK or a FOREIGN KEY.
		p.rebuild = true
		p.cons.drops = append(p.cons.drops, consDrop{name: sp.Constraint.Name})
		return nil
	case ast.AlterTableAlterCheck:
		return notYet("ALTER TABLE ... ALTER CHECK")
	}
	return notYet("this ALTER TABLE clause")
}

func (p *alterPlan) addColumns(sp *ast.AlterTableSpec) error {
	for i, cd := range sp.NewColumns {
		if p.colIndex(cd.Name.Name.O) >= 0 {
			if sp.IfNotExists {
				p.note(sqlerr.ErDupFieldName, "Duplicate column name '%s'", cd.Name.Name.O)
				continue
			}
			return sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", cd.Name.Name.O)
		}
		col, err := p.columnFrom(cd)
		if err != nil {
			return err
		}
		pos := sp.Position
		if i > 0 {
			pos = nil // ADD (a, b, c): each at the end
		}
		if err := p.place(planCol{Column: col, src: -1}, -1, pos); err != nil {
			return err
		}
		if err := p.addInline(); err != nil {
			return err
		}
	}
	return nil
}

// place puts c at pos (nil: where it was, at, or at the end when at < 0).
func (p *alterPlan) place(c planCol, at int, pos *ast.ColumnPosition) error {
	if pos != nil && pos.Tp != ast.ColumnPositionNone {
		if at >= 0 {
			p.cols = append(p.cols[:at], p.cols[at+1:]...)
		}
		switch pos.Tp {
		case ast.ColumnPositionFirst:
			at = 0
		case ast.ColumnPositionAfter:
			j := p.colIndex(pos.RelativeColumn.Name.O)
			if j < 0 {
				return p.unknownColumn(pos.RelativeColumn.Name.O)
			}
			at = j + 1
		}
		p.cols = append(p.cols[:at], append([]planCol{c}, p.cols[at:]...)...)
		return nil
	}
	if at < 0 {
		p.cols = append(p.cols, c)
		return nil
	}
	p.cols[at] = c
	return nil
}

// columnFrom reads a column definition; its inline PRIMARY KEY / UNIQUE
// wait in p.inline until the column is placed (addInline).
func (p *alterPlan) columnFrom(cd *ast.ColumnDef) (storage.Column, error) {
	ct, err := parse.ColType(cd)
	if err != nil {
		return storage.Column{}, err
	}
	if err := tabledef.CheckColumnCharset(cd, ct.JSON); err != nil {
		return storage.Column{}, err
	}
	col := storage.Column{Name: cd.Name.Name.O, Type: ct}
	for _, o := range cd.Options {
		switch o.Tp {
		case ast.ColumnOptionNotNull:
			col.NotNull = true
		case ast.ColumnOptionNull:
			col.NotNull = false
		case ast.ColumnOptionAutoIncrement:
			if !col.Type.IsInteger() {
				return col, sqlerr.New(sqlerr.ErWrongFieldSpec, "Incorrect column specifier for column '%s'", col.Name)
			}
			col.AutoIncrement = true
		case ast.ColumnOptionPrimaryKey:
			p.inline = append(p.inline, planKey{IndexDef: storage.IndexDef{Primary: true}, names: []string{col.Name}})
			col.NotNull = true
		case ast.ColumnOptionUniqKey:
			p.inline = append(p.inline, planKey{IndexDef: storage.IndexDef{Unique: true}, names: []string{col.Name}})
		case ast.ColumnOptionDefaultValue:
			if err := tabledef.SetDefault(&col, o.Expr); err != nil {
				return col, err
			}
			if err := p.s.StoreTimestampDefault(&p.def, &col); err != nil {
				return col, err
			}
		case ast.ColumnOptionOnUpdate:
			col.OnUpdateNow = true
		case ast.ColumnOptionComment:
			col.Comment = expr.RestoreString(o.Expr)
		case ast.ColumnOptionCheck:
			// built once the columns are placed (addConstraints); MariaDB
			// checks no existing row against a column's check
			p.cons.colChecks = append(p.cons.colChecks, cd)
		case ast.ColumnOptionReference:
			// ADD COLUMN's (MODIFY's and CHANGE's are refused first, by
			// refuseRedefinedReferences): added once the column is placed
			if err := p.refuseConstraint(columnForeignKey(cd, o)); err != nil {
				return col, err
			}
		}
	}
	return col, tabledef.NowDigits(&col, cd)
}

func (p *alterPlan) dropColumn(sp *ast.AlterTableSpec) error {
	name := sp.OldColumnName.Name.O
	i := p.original(name, false) // a column of the table as it was
	if i < 0 {
		if sp.IfExists {
			p.note(sqlerr.ErCantDropFieldOrKey, "Can't DROP COLUMN `%s`; check that it exists", name)
			return nil
		}
		return sqlerr.New(sqlerr.ErCantDropFieldOrKey, "Can't DROP COLUMN `%s`; check that it exists", name)
	}
	p.cols = append(p.cols[:i], p.cols[i+1:]...)
	p.dropped = append(p.dropped, name)
	return nil
}

// shrinkKeys takes the dropped columns out of the keys once every spec is
// applied (a key the same ALTER drops is not in the way): a key left with
// no column is dropped, and MariaDB refuses to narrow a multi-column
// UNIQUE key or primary key (the rows might collide on what is left).
func (p *alterPlan) shrinkKeys() error {
	kept := p.keys[:0]
	for _, k := range p.keys {
		var names []string
		var desc []bool
		var prefix []int
		for j, n := range k.names {
			if containsFold(p.dropped, n) {
				if k.Unique && len(k.names) > 1 {
					return sqlerr.New(sqlerr.ErKeyColumnDoesNotExit, "Key column '%s' doesn't exist in table", n)
				}
				continue
			}
			names = append(names, n)
			if j < len(k.Desc) {
				desc = append(desc, k.Desc[j])
			}
			if j < len(k.Prefix) {
				prefix = append(prefix, k.Prefix[j])
			}
		}
		if len(names) > 0 {
			k.names, k.Desc, k.Prefix = names, desc, prefix
			kept = append(kept, k)
		}
	}
	p.keys = kept
	return nil
}

func (p *alterPlan) modifyColumn(oldName string, cd *ast.ColumnDef, pos *ast.ColumnPosition) error {
	i := p.original(oldName, false)
	if i < 0 {
		return p.unknownColumn(oldName)
	}
	newName := cd.Name.Name.O
	col, err := p.columnFrom(cd)
	if err != nil {
		return err
	}
	was := p.cols[i]
	if was.src >= 0 && (!instantTypeChange(was.Type, col.Type) || was.AutoIncrement != col.AutoIncrement) {
		p.copyWhy = "Cannot change column type"
	}
	p.renameInKeys(was.Name, newName)
	if err := p.place(planCol{Column: col, src: was.src, altered: true, defaulted: was.defaulted, redefined: true}, i, pos); err != nil {
		return err
	}
	return p.addInline()
}

// instantTypeChange reports a type change MariaDB makes without copying
// the rows: none, or a longer VARCHAR.
func instantTypeChange(from, to types.ColType) bool {
	if from == to {
		return true
	}
	return from.Base == types.TVarchar && to.Base == types.TVarchar && to.Length >= from.Length
}

// renameInKeys follows a column's new name in the table's own keys (a key
// this ALTER adds names the columns as they end up).
func (p *alterPlan) renameInKeys(from, to string) {
	for ki := range p.keys {
		if !p.keys[ki].orig {
			continue
		}
		for j, n := range p.keys[ki].names {
			if strings.EqualFold(n, from) {
				p.keys[ki].names[j] = to
			}
		}
	}
}

func (p *alterPlan) renameColumn(from, to string) error {
	i := p.original(from, false)
	if i < 0 {
		return p.unknownColumn(from)
	}
	p.renameInKeys(p.cols[i].Name, to)
	p.cols[i].Name = to
	p.cols[i].altered = true
	return nil
}

func (p *alterPlan) alterDefault(cd *ast.ColumnDef) error {
	i := p.original(cd.Name.Name.O, true)
	if i < 0 {
		return p.unknownColumn(cd.Name.Name.O)
	}
	p.cols[i].defaulted = true
	col := &p.cols[i].Column
	col.HasDefault, col.Default, col.DefaultNow = false, types.Null, false
	for _, o := range cd.Options { // the parser leaves SET DEFAULT's option untyped
		if o.Expr != nil {
			if err := tabledef.SetDefault(col, o.Expr); err != nil {
				return err
			}
			if err := p.s.StoreTimestampDefault(&p.def, col); err != nil {
				return err
			}
		}
	}
	return nil
}

func containsFold(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

func (p *alterPlan) hasPlainKey() bool {
	for _, k := range p.keys {
		if !k.Unique {
			return true
		}
	}
	return false
}

// autoIncStart is the AUTO_INCREMENT = n a rebuild sets (0: keep the old
// table's counter). A table that had no AUTO_INCREMENT column has a counter
// no column used: InnoDB forgets it, and the column the ALTER adds or makes
// continues after its largest value (1 makes Rebuild.SetAutoIncFrom do so).
func (p *alterPlan) autoIncStart() uint64 {
	if p.autoInc == 0 && p.old.Def.AutoIncColumn() < 0 {
		return 1
	}
	return p.autoInc
}
