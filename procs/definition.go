package procs

import "strings"

// ParamMode is IN, OUT or INOUT.
type ParamMode int

const (
	ModeIn ParamMode = iota
	ModeOut
	ModeInOut
)

func (m ParamMode) String() string {
	switch m {
	case ModeOut:
		return "OUT"
	case ModeInOut:
		return "INOUT"
	}
	return "IN"
}

// Param is one declared parameter.
type Param struct {
	Mode ParamMode
	Name string
	// Type is the SQL type as written, upper-cased: "INT", "DECIMAL(12,2)",
	// "VARCHAR(20)".
	Type string
}

// Definition is a stored procedure as the user wrote it. It is what the
// catalog logs and snapshots (as JSON), so its fields are exported and
// plain.
type Definition struct {
	Name     string // as written; procedure names compare case-insensitively
	Params   []Param
	Language string // "LUA" or "JAVASCRIPT"
	Body     string // the text between the $tag$ delimiters
	// Delimiter is the dollar-quote tag used ("$$", "$js$"), kept so SHOW
	// CREATE PROCEDURE prints what was written.
	Delimiter string
	Created   string // "2006-01-02 15:04:05"
	// BodyLine is the line of the CREATE statement (or file) the body
	// starts on, so a SQL body's errors name that line; 0 means 1.
	BodyLine int `json:",omitempty"`
	// Characteristics are a SQL procedure's characteristics as written
	// (COMMENT, DETERMINISTIC, SQL SECURITY ...), normalised to single
	// spaces; SHOW CREATE PROCEDURE prints them.
	Characteristics string `json:",omitempty"`
	// Definer is DEFINER=... as written, if given.
	Definer  string `json:",omitempty"`
	Modified string
	// File is the file a procedure was loaded from (LOAD PROCEDURE,
	// --procs), as named there, and FirstLine the file line of the body's
	// first line; errors name file lines. Both are empty for CREATE
	// PROCEDURE.
	File      string `json:",omitempty"`
	FirstLine int    `json:",omitempty"`
	// Func is set for a stored function (CREATE FUNCTION): its RETURNS
	// type and characteristics. Its Params are all IN.
	Func *FunctionDef `json:",omitempty"`
}

// ShownDefiner is the DEFINER as SHOW PROCEDURE STATUS lists it (u@h,
// unquoted): root@localhost for one created without (the operator's).
func (d *Definition) ShownDefiner() string {
	if d.Definer == "" {
		return "root@localhost"
	}
	return strings.NewReplacer("`", "", "'", "", `"`, "").Replace(d.Definer)
}

// SecurityType is SQL SECURITY's DEFINER or INVOKER (SHOW PROCEDURE
// STATUS); a function's is its FunctionDef's.
func (d *Definition) SecurityType() string {
	if d.Func != nil {
		return d.Func.SecurityType()
	}
	if strings.Contains(strings.ToUpper(d.Characteristics), "SQL SECURITY INVOKER") {
		return "INVOKER"
	}
	return "DEFINER"
}
