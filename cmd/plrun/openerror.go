package main

import (
	"errors"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// openErrorLine is what the REPL and scripts print (after "plrun: ") when
// the data folder cannot be opened: one line, the engine's message without
// the MySQL code of an error that has none of its own (ERROR 1105 says
// nothing at a shell prompt), after "open DIR: " unless it names the
// folder already (a folder a newer plrun wrote, one in use).
func openErrorLine(dir string, err error) string {
	msg := err.Error()
	var e *sqlerr.Error
	if errors.As(err, &e) && e.Error() == msg && e.Code == sqlerr.ErUnknown {
		msg = e.Message
	}
	if !strings.Contains(msg, dir) {
		msg = "open " + dir + ": " + msg
	}
	return msg
}
