package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/plrun/plrun/server"
)

// versionLine is what plrun --version prints: the module version (or
// "devel"), the commit it was built from, and the Go toolchain.
func versionLine() string {
	version, commit, dirty := "devel", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	line := "plrun " + version
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		line += " (commit " + commit
		if dirty {
			line += ", modified"
		}
		line += ")"
	}
	return fmt.Sprintf("%s %s %s/%s, MySQL protocol %s", line, runtime.Version(), runtime.GOOS, runtime.GOARCH, server.ServerVersion)
}

func printVersion(w io.Writer) int {
	fmt.Fprintln(w, versionLine())
	return 0
}
