package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/storage/kv"

	"github.com/plrun/plrun/wal"
)

// recoverMain is `plrun recover`: it reads the data directory's log without
// opening the database and says whether plrun would open it, cut a torn
// tail, or refuse it as damaged. With --truncate-damaged it makes the
// operator's choice plrun never makes by itself: it cuts a damaged log at
// the damage, dropping every commit from there on, and says exactly what.
func recoverMain(args []string, dataDir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plrun recover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data", dataDir, "data directory")
	truncate := fs.Bool("truncate-damaged", false, "cut a damaged log at its damage, losing every commit from there on")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: plrun recover [--data DIR] [--truncate-damaged]\n\n"+
			"Checks the log of DIR (the database must not be open). Without --truncate-damaged\n"+
			"nothing is changed.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	lock, err := engine.LockDataDir(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "plrun recover: %v\n", err)
		return 1
	}
	defer lock.Close()
	// A newer plrun's log may not read as this one's: what looks damaged
	// here must not be cut.
	if err := kv.CheckFormat(filepath.Join(*dir, "store")); err != nil {
		fmt.Fprintf(stderr, "plrun recover: %s: %v\n", *dir, err)
		return 1
	}
	logDir := filepath.Join(*dir, "wal")
	rep, err := wal.Inspect(logDir)
	if err != nil {
		fmt.Fprintf(stderr, "plrun recover: %v\n", err)
		return 1
	}
	entries := 0
	for _, s := range rep.Segments {
		entries += len(s.Entries)
	}
	fmt.Fprintf(stdout, "log %s: %d segment(s), %d intact commit group(s) through lsn %d\n", logDir, len(rep.Segments), entries, rep.LastLSN)
	switch {
	case rep.Damage != nil:
		d := rep.Damage
		fmt.Fprintf(stdout, "damaged: %s at offset %d: %s\n", d.Segment, d.Offset, d.Reason)
		if d.Followed {
			fmt.Fprintf(stdout, "intact commit groups follow the damage (lsn %d..%d): this is not a torn write\n", d.LostFirst, d.LostLast)
		}
		fmt.Fprintf(stdout, "cutting there keeps lsn ..%d and drops lsn %d..%d: the rest of %s from offset %d",
			d.IntactThrough, d.IntactThrough+1, d.LostLast, filepath.Base(d.Segment), d.Offset)
		for _, p := range d.Later {
			fmt.Fprintf(stdout, ", %s", filepath.Base(p))
		}
		fmt.Fprintln(stdout)
		if !*truncate {
			fmt.Fprintf(stdout, "plrun will not open this database; run `plrun recover --data %s --truncate-damaged` to accept the loss\n", *dir)
			return 1
		}
		if err := wal.TruncateDamaged(logDir, d); err != nil {
			fmt.Fprintf(stderr, "plrun recover: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "cut: the log now ends at lsn %d\n", d.IntactThrough)
	case rep.Torn != nil:
		fmt.Fprintf(stdout, "torn tail (an unfinished last write): %s; plrun cuts it when it opens\n", rep.Torn)
	default:
		fmt.Fprintln(stdout, "intact")
	}
	return 0
}
