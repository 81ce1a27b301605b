package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// output is where the shell's transcript goes: standard output, or a pager
// command per result (pager), and a copy appended to a file (tee).
type output struct {
	stdout io.Writer
	pager  string   // "" = standard output
	tee    *os.File // nil = none
	teeTo  string
}

// write sends one result's text through the pager (if any) and to the
// tee file.
func (o *output) write(s string) {
	if s == "" {
		return
	}
	if o.tee != nil {
		_, _ = io.WriteString(o.tee, s)
	}
	if o.pager == "" {
		_, _ = io.WriteString(o.stdout, s)
		return
	}
	cmd := exec.Command("/bin/sh", "-c", o.pager)
	cmd.Stdin = strings.NewReader(s)
	cmd.Stdout, cmd.Stderr = o.stdout, o.stdout
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(o.stdout, "pager %q: %v\n", o.pager, err)
		_, _ = io.WriteString(o.stdout, s)
	}
}

// echo is text the user typed or a command's message: it goes to the tee
// file (mysql's tee records the whole session) and to standard output,
// never through the pager.
func (o *output) echo(s string) {
	if o.tee != nil {
		_, _ = io.WriteString(o.tee, s)
	}
	_, _ = io.WriteString(o.stdout, s)
}

func (o *output) setTee(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	o.closeTee()
	o.tee, o.teeTo = f, path
	return nil
}

func (o *output) closeTee() {
	if o.tee != nil {
		o.tee.Close()
		o.tee, o.teeTo = nil, ""
	}
}
