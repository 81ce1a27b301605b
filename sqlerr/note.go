package sqlerr

// Note is one SHOW WARNINGS row: a warning or note a statement raised, or
// the error it ended with.
type Note struct {
	Level   string // "Note", "Warning" or "Error"
	Code    uint16
	Message string
}
