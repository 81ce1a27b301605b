package engine

import (
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// startupOnly are the read-only variables whose value the embedder gives
// in Config.Settings at open: secure_file_priv, and what `plrun serve`
// configured for TLS (have_ssl, ssl_ca, ssl_cert, ssl_key, tls_version).
// No SET changes them.
var startupOnly = map[string]bool{
	"secure_file_priv": true,
	"have_ssl":         true,
	"ssl_ca":           true,
	"ssl_cert":         true,
	"ssl_key":          true,
	"tls_version":      true,
}

// applyStartupOnly stores the startup-only values of settings.
func (e *Engine) applyStartupOnly(settings map[string]string) {
	for name, val := range settings {
		if key := strings.ToLower(name); startupOnly[key] {
			e.globals.Vals[key] = val
		}
	}
}

// errNoSecureTransports is MariaDB's 4167 (MySQL's 3161): with no TLS,
// require_secure_transport=ON would refuse every login (plrun serves no
// Unix socket).
var errNoSecureTransports = sqlerr.New(sqlerr.ErNoSecureTransportsConfigured, "No secure transports are configured, unable to set --require_secure_transport=ON")

// checkSecureTransport refuses require_secure_transport=ON without TLS.
func (e *Engine) checkSecureTransport(d *sysvar.Def, text string) error {
	if d.Key() == "require_secure_transport" && text == "ON" && e.globals.Get("have_ssl") != "YES" {
		return errNoSecureTransports
	}
	return nil
}

// startupSettings are read-only variables the command line and option
// files may give at start, as mysqld takes innodb_buffer_pool_size:
// checked like a SET GLOBAL of the value (range too: out of range is an
// error, not a clamp no one would see), stored, and changed by no SET.
var startupSettings = map[string]bool{
	"plrun_cache_size": true,
}

// setStartupSetting stores a startup setting's value and its origin.
func (e *Engine) setStartupSetting(d *sysvar.Def, text string, o sysvar.Origin) error {
	val, warn, err := sysvar.Normalize(d, sysvar.Literal(text))
	if err != nil {
		return err
	}
	if warn != nil {
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s' (out of range)", d.Name, strings.TrimSpace(text))
	}
	if err := sysvar.Check(d, val); err != nil {
		return err
	}
	e.globals.Mu.Lock()
	e.globals.Vals[d.Key()] = val
	e.globals.Mu.Unlock()
	e.globals.SetOrigin(d.Key(), o)
	return nil
}
