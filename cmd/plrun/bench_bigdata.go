package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/plrun/plrun/bench"
	"github.com/plrun/plrun/sql/sysvar"
)

// The data-size workloads (issue 15): load, open and dirty work on one
// data folder the user names, with the sysbench table in it, and take
// their own small flag set (the seed workloads' --time, --chart ... do
// not apply to them).

// sizeFlag is a byte count given as mysqld takes one: 512M, 2G, 134217728.
type sizeFlag struct {
	bytes int64
	set   bool
}

func (f *sizeFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatInt(f.bytes, 10)
}

func (f *sizeFlag) Set(v string) error {
	n, err := sysvar.ParseSize(v)
	if err != nil {
		return err
	}
	f.bytes, f.set = n, true
	return nil
}

// dataBenchFlags are the flags load, open and dirty share.
type dataBenchFlags struct {
	fs        *flag.FlagSet
	dataDir   *string
	jsonOut   *bool
	cacheSize sizeFlag
	settings  settingsFlag
}

func newDataBenchFlags(name, dataHelp string, stdout, stderr io.Writer) *dataBenchFlags {
	fs := flag.NewFlagSet("plrun bench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	b := &dataBenchFlags{
		fs:       fs,
		dataDir:  fs.String("data", "", dataHelp),
		jsonOut:  fs.Bool("json", false, "print the result as one JSON object instead of text"),
		settings: settingsFlag{},
	}
	fs.Var(&b.cacheSize, "cache-size", "plrun_cache_size: memory for table data, e.g. 512M or 2G (K, M, G, T: powers of 1024)")
	fs.Var(b.settings, "set", "set a global variable at open, name=value (repeatable; integers take K, M, G, T)")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: plrun bench %s [flags]\n\nFlags:\n", name)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	return b
}

// parse parses args; status is the exit status when ok is false.
func (b *dataBenchFlags) parse(args []string) (status int, ok bool) {
	if err := b.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if b.fs.NArg() > 0 {
		fmt.Fprintf(b.fs.Output(), "%s: unexpected argument %q\n", b.fs.Name(), b.fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// openSettings are --set's settings with --cache-size over them.
func (b *dataBenchFlags) openSettings() map[string]string {
	s := make(map[string]string, len(b.settings)+1)
	for k, v := range b.settings {
		s[k] = v
	}
	if b.cacheSize.set {
		s["plrun_cache_size"] = strconv.FormatInt(b.cacheSize.bytes, 10)
	}
	return s
}

// fail prints a run's error; 1 is the exit status.
func (b *dataBenchFlags) fail(err error) int {
	fmt.Fprintf(b.fs.Output(), "%s: %v\n", b.fs.Name(), err)
	return 1
}

// emptyOrMissing reports whether dir can take a new database: it does
// not exist yet or holds nothing.
func emptyOrMissing(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return true, nil
	}
	return len(entries) == 0, err
}

// mb prints a byte count in MiB, or n/a where it could not be read.
func mb(bytes int64) string {
	if bytes <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", bench.MB(bytes))
}
