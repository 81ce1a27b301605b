package infoschema

import (
	"regexp"
	"strings"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

// ROUTINES and PARAMETERS: plrun's procedures and functions in every
// language. A Lua or JavaScript routine is ROUTINE_BODY EXTERNAL with its
// EXTERNAL_LANGUAGE, as MySQL 9 shows its JavaScript routines.

func init() {
	i21 := intw(21)
	register(&table{name: "ROUTINES", cols: []column{
		{"SPECIFIC_NAME", varchar(64), true}, {"ROUTINE_CATALOG", varchar(512), true}, {"ROUTINE_SCHEMA", varchar(64), true},
		{"ROUTINE_NAME", varchar(64), true}, {"ROUTINE_TYPE", varchar(13), true}, {"DATA_TYPE", varchar(64), true},
		{"CHARACTER_MAXIMUM_LENGTH", i21, false}, {"CHARACTER_OCTET_LENGTH", i21, false}, {"NUMERIC_PRECISION", i21, false},
		{"NUMERIC_SCALE", i21, false}, {"DATETIME_PRECISION", ubigint(21), false}, {"CHARACTER_SET_NAME", varchar(64), false},
		{"COLLATION_NAME", varchar(64), false}, {"DTD_IDENTIFIER", longtext, false}, {"ROUTINE_BODY", varchar(8), true},
		{"ROUTINE_DEFINITION", longtext, false}, {"EXTERNAL_NAME", varchar(64), false}, {"EXTERNAL_LANGUAGE", varchar(64), false},
		{"PARAMETER_STYLE", varchar(8), true}, {"IS_DETERMINISTIC", varchar(3), true}, {"SQL_DATA_ACCESS", varchar(64), true},
		{"SQL_PATH", varchar(64), false}, {"SECURITY_TYPE", varchar(7), true}, {"CREATED", datetime, true},
		{"LAST_ALTERED", datetime, true}, {"SQL_MODE", varchar(8192), true}, {"ROUTINE_COMMENT", longtext, true},
		{"DEFINER", varchar(384), true}, {"CHARACTER_SET_CLIENT", varchar(32), true}, {"COLLATION_CONNECTION", varchar(64), true},
		{"DATABASE_COLLATION", varchar(64), true},
	}, rows: routinesRows, schemaCol: "ROUTINE_SCHEMA", nameCol: "ROUTINE_NAME"})
	register(&table{name: "PARAMETERS", cols: []column{
		{"SPECIFIC_CATALOG", varchar(512), true}, {"SPECIFIC_SCHEMA", varchar(64), true}, {"SPECIFIC_NAME", varchar(64), true},
		{"ORDINAL_POSITION", i21, true}, {"PARAMETER_MODE", varchar(5), false}, {"PARAMETER_NAME", varchar(64), false},
		{"DATA_TYPE", varchar(64), true}, {"CHARACTER_MAXIMUM_LENGTH", i21, false}, {"CHARACTER_OCTET_LENGTH", i21, false},
		{"NUMERIC_PRECISION", i21, false}, {"NUMERIC_SCALE", i21, false}, {"DATETIME_PRECISION", ubigint(21), false},
		{"CHARACTER_SET_NAME", varchar(64), false}, {"COLLATION_NAME", varchar(64), false}, {"DTD_IDENTIFIER", longtext, true},
		{"ROUTINE_TYPE", varchar(9), true},
	}, rows: parametersRows, schemaCol: "SPECIFIC_SCHEMA", nameCol: "SPECIFIC_NAME"})
}

// routine is one procedure or function of a database.
type routine struct {
	db  string
	def *procs.Definition
}

func (r routine) kind() string {
	if r.def.IsFunction() {
		return "FUNCTION"
	}
	return "PROCEDURE"
}

// eachRoutine calls fn for every routine, by database, procedures then
// functions, each sorted by name.
func eachRoutine(src Source, f filter, fn func(r routine)) {
	pc := src.Procs()
	if pc == nil {
		return
	}
	for _, db := range src.Catalog().Databases() {
		if !f.keeps(db, "") {
			continue
		}
		for _, d := range pc.ListIn(db) {
			if f.keeps(db, d.Name) {
				fn(routine{db, d})
			}
		}
		for _, d := range pc.ListFunctionsIn(db) {
			if f.keeps(db, d.Name) {
				fn(routine{db, d})
			}
		}
	}
}

// typeCols are DATA_TYPE through DTD_IDENTIFIER of a routine's RETURNS
// or a parameter's type, as written.
func typeCols(written string) (dataTyp types.Value, ls []types.Value, dtd types.Value) {
	t, err := parse.TypeOf(written)
	if err != nil {
		// a type plrun keeps as text only: named as written
		return str(strings.ToLower(written)), []types.Value{null, null, null, null, null, null, null}, str(strings.ToLower(written))
	}
	cm, oc, p, s, dp := lengths(t)
	cs, co := null, null
	if t.IsString() && !t.IsBinary() {
		cs, co = str("utf8mb4"), str("utf8mb4_general_ci")
	}
	typ := t.SQL()
	return str(dataType(typ)), []types.Value{toInt(cm), toInt(oc), toInt(p), toInt(s), dp, cs, co}, str(typ)
}

// toInt is an unsigned length as ROUTINES' and PARAMETERS' int(21).
func toInt(v types.Value) types.Value {
	if v.IsNull() {
		return v
	}
	return i64(v.I)
}

var commentRe = regexp.MustCompile(`(?i)COMMENT\s+(?:'((?:[^']|'')*)'|"((?:[^"]|"")*)")`)

// traits are a routine's characteristics as ROUTINES reports them.
func traits(d *procs.Definition) (deterministic bool, access, security, comment string) {
	var cs []string
	if d.Func != nil {
		cs = d.Func.Characteristics
		comment = d.Func.Comment
	} else {
		cs = []string{d.Characteristics}
		if m := commentRe.FindStringSubmatch(d.Characteristics); m != nil {
			comment = strings.ReplaceAll(m[1], "''", "'") + strings.ReplaceAll(m[2], `""`, `"`)
		}
	}
	access, security = "CONTAINS SQL", "DEFINER"
	for _, c := range cs {
		u := strings.ToUpper(c)
		for _, a := range []string{"NO SQL", "READS SQL DATA", "MODIFIES SQL DATA", "CONTAINS SQL"} {
			if strings.Contains(u, a) {
				access = a
			}
		}
		if strings.Contains(u, "SQL SECURITY INVOKER") {
			security = "INVOKER"
		}
		if strings.Contains(strings.ReplaceAll(u, "NOT DETERMINISTIC", ""), "DETERMINISTIC") {
			deterministic = true
		}
	}
	return
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// stamp is a catalog time ("2006-01-02 15:04:05") as a DATETIME.
func stamp(s string) types.Value {
	t, err := time.ParseInLocation("2006-01-02 15:04:05", s, time.Local)
	if err != nil {
		return types.TimeValue(time.Time{})
	}
	return types.TimeValue(t)
}

func routinesRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	globalMode := src.SysVar(sysvar.Defs["sql_mode"], true)
	eachRoutine(src, f, func(r routine) {
		d := r.def
		dataTyp, ls, dtd := str(""), []types.Value{null, null, null, null, null, null, null}, null
		mode := globalMode
		if d.Func != nil {
			dataTyp, ls, dtd = typeCols(d.Func.Returns)
			mode = d.Func.SQLMode
		}
		body, lang := str("SQL"), null
		if d.Language != procs.LanguageSQL {
			body, lang = str("EXTERNAL"), str(d.Language)
		}
		det, access, security, comment := traits(d)
		definer := d.Definer
		if definer == "" {
			definer = "root@localhost"
		}
		row := []types.Value{str(d.Name), str("def"), str(r.db), str(d.Name), str(r.kind()), dataTyp}
		row = append(row, ls...)
		row = append(row, dtd, body, str(d.Body), null, lang, str("SQL"), str(yesNo(det)), str(access), null, str(security),
			stamp(d.Created), stamp(d.Modified), str(mode), str(comment), str(definer), str("utf8mb4"), str("utf8mb4_general_ci"),
			str("utf8mb4_general_ci"))
		out = append(out, row)
	})
	return out
}

func parametersRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachRoutine(src, f, func(r routine) {
		d := r.def
		head := []types.Value{str("def"), str(r.db), str(d.Name)}
		if d.Func != nil {
			// a function's RETURNS is its parameter 0, without mode or name
			dataTyp, ls, dtd := typeCols(d.Func.Returns)
			row := append(append([]types.Value{}, head...), i64(0), null, null, dataTyp)
			out = append(out, append(append(row, ls...), dtd, str("FUNCTION")))
		}
		for i, p := range d.Params {
			dataTyp, ls, dtd := typeCols(p.Type)
			row := append(append([]types.Value{}, head...), i64(int64(i+1)), str(p.Mode.String()), str(p.Name), dataTyp)
			out = append(out, append(append(row, ls...), dtd, str(r.kind())))
		}
	})
	return out
}
