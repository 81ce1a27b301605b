package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/plrun/plrun/server"
)

// serveMain runs the MySQL protocol server until SIGTERM or SIGINT.
func serveMain(args []string, stderr io.Writer) int {
	err := server.Main(args)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintf(stderr, "plrun serve: %v\n", err)
		return 1
	}
}
