package parse

import (
	"regexp"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// The TiDB parser knows ALGORITHM = DEFAULT | COPY | INPLACE | INSTANT and
// refuses any other word with a parse error that names the wrong word;
// MariaDB's answers are 1800 for an unknown algorithm and 1801 for an
// unknown LOCK type. MariaDB's NOCOPY (no rebuild of the clustered index)
// is a real algorithm plrun does not model yet: 1235, not "unknown".
var reAlgorithm = regexp.MustCompile(`(?i)\balgorithm\s*=?\s*(\w+)`)

// algorithmError is MariaDB's error for the parse error err of s, when it
// is the parser's unknown ALGORITHM or LOCK (nil otherwise).
func algorithmError(s string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "[parser:1801]"):
		if i := strings.Index(msg, "Unknown LOCK type"); i >= 0 {
			return sqlerr.New(sqlerr.ErUnknownAlterLock, "%s", strings.TrimSpace(msg[i:]))
		}
	case strings.Contains(msg, "[parser:1800]"):
		for _, m := range reAlgorithm.FindAllStringSubmatch(s, -1) {
			switch strings.ToUpper(m[1]) {
			case "DEFAULT", "COPY", "INPLACE", "INSTANT":
				continue
			case "NOCOPY":
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'ALGORITHM=NOCOPY'")
			}
			return sqlerr.New(sqlerr.ErUnknownAlterAlgorithm, "Unknown ALGORITHM '%s'", m[1])
		}
	}
	return nil
}
