package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/plrun/plrun/server"
)

// isPlrunFile reports whether a name in a data directory is plrun's own.
func isPlrunFile(name string) bool {
	switch {
	case name == "LOCK", name == "wal", name == "store", name == ".plrun_history", strings.HasPrefix(name, "plrun-auto.cnf"):
		return true
	case strings.HasPrefix(name, "snapshot-") && (strings.HasSuffix(name, ".plr") || strings.HasSuffix(name, ".tmp")):
		return true
	case server.IsDataFile(name): // serve's TLS certificates and RSA keys
		return true
	}
	return false
}

// isQueryLogFile reports whether a name is one the general and slow
// query logs write in the data folder by default (HOST.log,
// HOST-slow.log), or a rotation of one (HOST.log.1).
func isQueryLogFile(name string) bool {
	return strings.HasSuffix(name, ".log") || strings.Contains(name, ".log.")
}

// prepareDataDir decides what --data DIR means before the database is
// opened: an existing plrun database is opened; a missing or empty folder
// becomes a new database only when asked (create: --create, or the REPL on
// a terminal, which says so); a folder holding anything else is refused,
// so a typo never scatters a database into a folder of other files.
func prepareDataDir(dir string, create bool) (created bool, err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		if !create {
			return false, fmt.Errorf("no plrun database at %s (the folder does not exist); add --create to make one", dir)
		}
		return true, os.MkdirAll(dir, 0o755)
	case err != nil:
		return false, fmt.Errorf("cannot read the data folder %s: %w", dir, err)
	}
	var foreign []string
	ours := false
	for _, e := range entries {
		if isQueryLogFile(e.Name()) {
			continue // neither foreign nor proof of a database
		}
		if e.Name() == server.DataOptionFile {
			continue // the folder's option file: neither a database nor foreign
		}
		if isPlrunFile(e.Name()) {
			ours = true
		} else {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		if len(foreign) > 3 {
			foreign = append(foreign[:3], "...")
		}
		return false, fmt.Errorf("%s holds files that are not a plrun database (%s); refusing to use it as a data folder",
			dir, strings.Join(foreign, ", "))
	}
	if ours {
		return false, nil
	}
	if !create {
		return false, fmt.Errorf("no plrun database at %s (the folder is empty); add --create to make one", dir)
	}
	return true, nil
}

// lockHolder describes the process named in a data folder's LOCK file,
// for the error when the folder is in use: its PID, its command line and,
// if it is `plrun serve`, how to reach it with the mysql client.
func lockHolder(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "LOCK"))
	if err != nil {
		return ""
	}
	var pid int
	if _, err := fmt.Sscanf(string(b), "pid %d", &pid); err != nil || pid <= 0 {
		return ""
	}
	msg := fmt.Sprintf("it is held by process %d", pid)
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return msg
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	msg += " (" + strings.Join(redactPasswords(args), " ") + ")"
	for i, a := range args {
		if a == "serve" {
			listen := "127.0.0.1:3306"
			for j := i; j < len(args); j++ {
				if v, ok := strings.CutPrefix(args[j], "--listen="); ok {
					listen = v
				} else if args[j] == "--listen" && j+1 < len(args) {
					listen = args[j+1]
				}
			}
			host, port, _ := strings.Cut(listen, ":")
			if host == "" || host == "0.0.0.0" {
				host = "127.0.0.1"
			}
			msg += fmt.Sprintf("; to use that server, connect to it: mysql -h %s -P %s -u <user> -p", host, port)
			break
		}
	}
	return msg
}

// redactPasswords hides the values of --password flags in a command line.
func redactPasswords(args []string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		switch {
		case strings.HasPrefix(a, "--password="), strings.HasPrefix(a, "-password="):
			out[i] = a[:strings.IndexByte(a, '=')+1] + "***"
		case (a == "--password" || a == "-password") && i+1 < len(out):
			out[i+1] = "***"
		}
	}
	return out
}
