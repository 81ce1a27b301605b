package alter

import (
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/ddl/tabledef"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// indexOptions refuses what plrun would otherwise drop: a key's COMMENT,
// KEY_BLOCK_SIZE, parser or visibility. USING BTREE / HASH is accepted:
// InnoDB keys are B-trees whatever it says, as in MariaDB.
// It returns the USING word to show ("" if none).
func indexOptions(o *ast.IndexOption) (string, error) {
	if o == nil {
		return "", nil
	}
	if o.Comment != "" || o.KeyBlockSize != 0 || o.ParserName.O != "" || o.Condition != nil ||
		(o.Visibility != ast.IndexVisibilityDefault && o.Visibility != ast.IndexVisibilityVisible) {
		return "", notYet("index COMMENT, KEY_BLOCK_SIZE, WITH PARSER or visibility")
	}
	switch o.Tp {
	case ast.IndexTypeInvalid:
		return "", nil
	case ast.IndexTypeBtree:
		return "BTREE", nil
	case ast.IndexTypeHash:
		return "HASH", nil
	}
	return "", notYet("this index type")
}

// setUsing marks the key just added with its USING word.
func (p *alterPlan) setUsing(using string) {
	if using != "" && len(p.keys) > 0 {
		p.keys[len(p.keys)-1].Using = using
	}
}

func (p *alterPlan) addConstraint(c *ast.Constraint) error {
	using, err := indexOptions(c.Option)
	if err != nil {
		return err
	}
	switch c.Tp {
	case ast.ConstraintPrimaryKey:
		err = p.addKeyParts("PRIMARY", c.Keys, true, true)
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		err = p.addKeyParts(c.Name, c.Keys, false, true)
	case ast.ConstraintKey, ast.ConstraintIndex:
		err = p.addKeyParts(c.Name, c.Keys, false, false)
	default:
		return p.refuseConstraint(c)
	}
	if err == nil {
		p.setUsing(using)
	}
	return err
}

func (p *alterPlan) refuseConstraint(c *ast.Constraint) error {
	switch c.Tp {
	case ast.ConstraintForeignKey:
		p.cons.addFKs = append(p.cons.addFKs, c)
		if p.s.ForeignKeyChecks() {
			// the rows are checked against the parent as they are copied
			p.copyWhy = "Adding foreign keys needs foreign_key_checks=OFF"
		}
		return nil
	case ast.ConstraintCheck:
		p.cons.addChecks = append(p.cons.addChecks, c)
		p.copyWhy = "ADD CHECK" // MariaDB copies the rows to check them
		return nil
	}
	return notYet("ALTER TABLE ... ADD FULLTEXT/SPATIAL")
}

func (p *alterPlan) addKeyParts(name string, parts []*ast.IndexPartSpecification, primary, unique bool) error {
	var names []string
	var desc []bool
	var prefix []int
	hasPrefix := false
	for _, k := range parts {
		if k.Column == nil {
			return notYet("expression indexes")
		}
		names = append(names, k.Column.Name.O)
		desc = append(desc, k.Desc)
		prefix = append(prefix, max(k.Length, 0))
		hasPrefix = hasPrefix || k.Length > 0
	}
	if err := p.addKey(name, names, desc, primary, unique); err != nil {
		return err
	}
	if hasPrefix {
		p.keys[len(p.keys)-1].Prefix = prefix
	}
	return nil
}

// addKey adds a key over the named columns, named as MySQL names it when
// name is empty (its first column's name, then _2, _3 ...).
func (p *alterPlan) addKey(name string, names []string, desc []bool, primary, unique bool) error {
	p.noCopyWhy = "ADD INDEX"
	// Its columns are looked for once every column spec is applied
	// (resolve), as MariaDB reports a duplicate column name first.
	hasDesc := false
	for _, d := range desc {
		hasDesc = hasDesc || d
	}
	if !hasDesc {
		desc = nil
	}
	k := planKey{IndexDef: storage.IndexDef{Name: name, Primary: primary, Unique: unique || primary, Desc: desc}, names: names}
	if primary {
		// A second primary key is 1068 once the drops are done (resolve):
		// ADD PRIMARY KEY (a), DROP PRIMARY KEY replaces the old one.
		k.Name = "PRIMARY"
		p.keys = append(p.keys, k)
		return nil
	}
	if strings.EqualFold(name, "PRIMARY") {
		return sqlerr.New(sqlerr.ErWrongNameForIndex, "Incorrect index name '%s'", name)
	}
	if k.Name == "" {
		base := names[0]
		if i := p.colIndex(base); i >= 0 {
			base = p.cols[i].Name
		}
		k.Name = base
		for i := 2; p.keyIndex(k.Name) >= 0; i++ {
			k.Name = fmt.Sprintf("%s_%d", base, i)
		}
	}
	if p.keyIndex(k.Name) >= 0 {
		return sqlerr.New(sqlerr.ErDupKeyName, "Duplicate key name '%s'", k.Name)
	}
	p.keys = append(p.keys, k)
	return nil
}

// checkKeys, once every spec is applied: the columns of added keys exist
// (1072), and an added key the same as one the table keeps is MariaDB's
// note 1831.
func (p *alterPlan) checkKeys() error {
	for i, k := range p.keys {
		if k.orig {
			continue
		}
		keep := false
		for j, n := range k.names {
			c := p.colIndex(n)
			if c < 0 {
				return sqlerr.New(sqlerr.ErKeyColumnDoesNotExit, "Key column '%s' doesn't exist in table", n)
			}
			if j < len(k.Prefix) {
				n, err := tabledef.KeyPrefix(&p.cols[c].Column, k.Prefix[j])
				if err != nil {
					return err
				}
				k.Prefix[j], keep = n, keep || n > 0
			}
		}
		if !keep {
			p.keys[i].Prefix = nil
		}
		for _, x := range p.keys[:i] {
			if !x.Primary && !k.Primary && x.Unique == k.Unique && x.Using == k.Using && sameNames(x.names, k.names) && samePrefixes(x.Prefix, k.Prefix) {
				p.note(sqlerr.ErDuplicatedIndex, "Duplicate index `%s`. This is deprecated and will be disallowed in a future release", k.Name)
				break
			}
		}
	}
	return nil
}

// samePrefixes reports whether two keys' parts have the same prefix
// lengths (0 or missing: the whole value).
func samePrefixes(a, b []int) bool {
	at := func(p []int, i int) int {
		if i < len(p) {
			return p[i]
		}
		return 0
	}
	for i := range max(len(a), len(b)) {
		if at(a, i) != at(b, i) {
			return false
		}
	}
	return true
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (p *alterPlan) dropKey(name string, ifExists bool) error {
	i := -1 // DROP names a key of the table as it was
	for j, k := range p.keys {
		if k.orig && (strings.EqualFold(k.Name, name) || (k.Primary && strings.EqualFold(name, "PRIMARY"))) {
			i = j
		}
	}
	if i < 0 {
		if ifExists {
			p.note(sqlerr.ErCantDropFieldOrKey, "Can't DROP INDEX `%s`; check that it exists", name)
			return nil
		}
		return sqlerr.New(sqlerr.ErCantDropFieldOrKey, "Can't DROP INDEX `%s`; check that it exists", name)
	}
	p.keys = append(p.keys[:i], p.keys[i+1:]...)
	return nil
}

func (p *alterPlan) renameKey(from, to string) error {
	i := p.keyIndex(from)
	if i < 0 || p.keys[i].Primary {
		return sqlerr.New(sqlerr.ErKeyDoesNotExist, "Key '%s' doesn't exist in table '%s'", from, p.old.Def.Name)
	}
	if j := p.keyIndex(to); j >= 0 && j != i {
		return sqlerr.New(sqlerr.ErDupKeyName, "Duplicate key name '%s'", to)
	}
	p.keys[i].Name = to
	return nil
}

// tableOptions applies ENGINE=, AUTO_INCREMENT=, COMMENT=, [DEFAULT]
// CHARSET/COLLATE and CONVERT TO CHARACTER SET. plrun keeps text as
// utf8mb4 whatever the table's declared default, as CREATE TABLE does,
// so only utf8mb4 may be converted to.
func (p *alterPlan) tableOptions(opts []*ast.TableOption) error {
	for _, o := range opts {
		switch o.Tp {
		case ast.TableOptionEngine:
			if o.StrValue != "" {
				if err := p.setEngine(o.StrValue); err != nil {
					return err
				}
			}
		case ast.TableOptionAutoIncrement:
			p.autoInc = max(o.UintValue, 1)
		case ast.TableOptionComment:
			p.def.Comment = o.StrValue
		case ast.TableOptionCharset:
			if err := tabledef.CheckStoredCharset(o.StrValue, ""); err != nil {
				return err
			}
			if o.UintValue == ast.TableOptionCharsetWithConvertTo {
				if o.Default {
					// the database's character set, which plrun's are: utf8mb4
					o = &ast.TableOption{Tp: o.Tp, StrValue: "utf8mb4", UintValue: o.UintValue}
				}
				if !strings.EqualFold(o.StrValue, "utf8mb4") {
					return notYet("CONVERT TO CHARACTER SET other than utf8mb4")
				}
				// Every text column already is utf8mb4 with the table's one
				// collation (CheckStoredCharset), so no value changes and
				// MariaDB copies nothing either.
			}
			if !strings.EqualFold(o.StrValue, p.def.Charset) {
				p.def.Charset = strings.ToLower(o.StrValue)
				p.def.Collate = defaultCollation(p.def.Charset)
			}
		case ast.TableOptionCollate:
			if err := tabledef.CheckStoredCharset("", o.StrValue); err != nil {
				return err
			}
			p.def.Collate = o.StrValue
		default:
			return notYet("this ALTER TABLE table option")
		}
	}
	return nil
}

// setEngine is ALTER TABLE's ENGINE=. InnoDB (plrun's one engine, as SHOW
// ENGINES says) is rebuilt as by FORCE. Another is 1286 under
// NO_ENGINE_SUBSTITUTION, else warning 1286 and the table's engine kept,
// as MariaDB answers for an engine it has not (CREATE TABLE adds 1266).
func (p *alterPlan) setEngine(name string) error {
	if strings.EqualFold(name, "InnoDB") {
		p.def.Engine = "InnoDB"
		p.rebuilds = true
		return nil
	}
	if p.s.SQLMode()&sysvar.ModeNoEngineSubst != 0 {
		return sqlerr.New(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", name)
	}
	p.s.Warn(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", name)
	return nil
}

// defaultCollation is a character set's default collation, as MariaDB
// names it.
func defaultCollation(cs string) string {
	switch cs {
	case "latin1":
		return "latin1_swedish_ci"
	case "utf8", "utf8mb3":
		return "utf8mb3_general_ci"
	case "binary":
		return "binary"
	case "ascii":
		return "ascii_general_ci"
	}
	return cs + "_general_ci"
}

// resolve checks the plan as a whole and makes the new definition and the
// reshape of the rows. rows says whether the table holds any (an added
// column MySQL would fill with something plrun cannot hold is refused only
// then).
// newDefinition is the table's new definition and the reshaping of its
// rows, with ORDER BY's row order and the constraints it keeps: what an
// online rebuild and a temporary table's rebuild both start from.
func (p *alterPlan) newDefinition(cat *storage.Catalog) (*storage.TableDef, *storage.Reshape, error) {
	def, shape, err := p.resolve(p.old.RowCount() > 0)
	if err != nil {
		return nil, nil, err
	}
	if err := p.orderRows(def, shape); err != nil {
		return nil, nil, err
	}
	if err := p.carryConstraints(cat, def, shape); err != nil {
		return nil, nil, err
	}
	return def, shape, nil
}

func (p *alterPlan) resolve(rows bool) (*storage.TableDef, *storage.Reshape, error) {
	if len(p.cols) == 0 {
		return nil, nil, sqlerr.New(sqlerr.ErCantRemoveAllFields, "You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
	}
	for i := range p.cols {
		for j := 0; j < i; j++ {
			if strings.EqualFold(p.cols[i].Name, p.cols[j].Name) {
				return nil, nil, sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", p.cols[i].Name)
			}
		}
	}
	if err := p.checkKeys(); err != nil {
		return nil, nil, err
	}
	if err := p.shrinkKeys(); err != nil {
		return nil, nil, err
	}
	primaries := 0
	for _, k := range p.keys {
		if k.Primary {
			primaries++
			for _, n := range k.names {
				p.cols[p.colIndex(n)].NotNull = true // a primary key's columns are NOT NULL
			}
		}
	}
	if primaries > 1 {
		return nil, nil, sqlerr.New(sqlerr.ErMultiplePriKey, "Multiple primary key defined")
	}
	for i := range p.cols {
		if p.cols[i].AutoIncrement {
			p.cols[i].NotNull = true // as MariaDB makes it
		}
	}
	if p.keysSpec && p.rebuild {
		p.copyWhy = "DISABLE KEYS" // beside another change, MariaDB copies the rows
	}
	def := p.def
	def.Columns = nil
	shape := &storage.Reshape{Zone: storage.ZoneName(p.s.Location())}
	clock := time.Now()
	for _, c := range p.cols {
		def.Columns = append(def.Columns, c.Column)
		shape.Source = append(shape.Source, c.src)
		fill := types.Null
		if c.src < 0 {
			switch {
			case c.AutoIncrement:
				fill = types.IntValue(0) // numbered by Rebuild.Finish
				shape.Number = len(def.Columns)
				shape.NumberFrom = int64(p.autoInc) // AUTO_INCREMENT = n in the same ALTER: from n
			case c.DefaultNow:
				// a DATETIME's now is the session's wall clock; a
				// TIMESTAMP's the instant, in the table's zone
				fill = types.TimeValue(c.Now(clock).In(p.s.Location()))
				if store := p.def.TimestampStore(); store != nil && c.Type.Base == types.TTimestamp {
					fill = types.TimeValue(c.Now(clock).In(store))
				}
			case c.HasDefault:
				fill = c.Default
			case c.NotNull:
				d, ok := types.ImplicitDefault(c.Type)
				if !ok && rows {
					return nil, nil, notYet("ADD COLUMN ... NOT NULL of a date or time type without DEFAULT on a table that has rows")
				}
				fill = d
			}
		}
		shape.Fill = append(shape.Fill, fill)
	}
	def.Indexes = nil
	for _, k := range sortedKeys(p.keys, p) {
		ix := k.IndexDef
		ix.Cols = nil
		for _, n := range k.names {
			ix.Cols = append(ix.Cols, def.ColumnIndex(n))
		}
		def.Indexes = append(def.Indexes, ix)
	}
	if p.old.Def.PrimaryKey() != nil && def.PrimaryKey() == nil && !hasNotNullUnique(&def) {
		// InnoDB then clusters on a hidden row id (not on a UNIQUE key of
		// NOT NULL columns, as it would if there were one): MariaDB copies
		// the rows.
		p.copyWhy = "Dropping a primary key is not allowed without also adding a new primary key"
	}
	if auto := def.AutoIncColumn(); auto >= 0 {
		keyed := false
		for _, ix := range def.Indexes {
			keyed = keyed || ix.Cols[0] == auto
		}
		if !keyed {
			return nil, nil, sqlerr.New(sqlerr.ErWrongAutoKey, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
		}
	}
	if p.renameTo != nil {
		db := p.renameTo.Schema.O
		if db == "" {
			db = p.old.Def.DB
		}
		def.DB, def.Name = db, p.renameTo.Name.O
	}
	return &def, shape, nil
}

// sortedKeys orders keys as MariaDB keeps them (and SHOW CREATE TABLE
// lists them): the primary key, then UNIQUE keys over NOT NULL columns,
// then other UNIQUE keys, then the rest, each group in the order made.
func sortedKeys(keys []planKey, p *alterPlan) []planKey {
	rank := func(k planKey) int {
		switch {
		case k.Primary:
			return 0
		case k.Unique:
			for _, n := range k.names {
				if !p.cols[p.colIndex(n)].NotNull {
					return 2
				}
			}
			return 1
		}
		return 3
	}
	var out []planKey
	for r := 0; r <= 3; r++ {
		for _, k := range keys {
			if rank(k) == r {
				out = append(out, k)
			}
		}
	}
	return out
}

// hasNotNullUnique reports a UNIQUE key whose columns are all NOT NULL.
func hasNotNullUnique(def *storage.TableDef) bool {
	for _, ix := range def.Indexes {
		if !ix.Unique {
			continue
		}
		all := true
		for _, c := range ix.Cols {
			all = all && def.Columns[c].NotNull
		}
		if all {
			return true
		}
	}
	return false
}
