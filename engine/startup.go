package engine

import (
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// startupOnly are the read-only variables whose value the embedder gives
// in Config.Settings at open: secure_file_priv, what `plrun serve`
// configured for TLS (have_ssl, ssl_ca, ssl_cert, ssl_key, tls_version),
// and plrun_cache_size (the table store is opened with it). No SET
// changes them.
var startupOnly = map[string]bool{
	"secure_file_priv": true,
	"have_ssl":         true,
	"ssl_ca":           true,
	"ssl_cert":         true,
	"ssl_key":          true,
	"tls_version":      true,
	"plrun_cache_size": true,
}

// applyStartupOnly stores the startup-only values of settings.
func (e *Engine) applyStartupOnly(settings map[string]string) error {
	for name, val := range settings {
		key := strings.ToLower(name)
		if !startupOnly[key] {
			continue
		}
		text, err := startupValue(key, val)
		if err != nil {
			return err
		}
		e.globals.Vals[key] = text
	}
	return nil
}

// startupValue is the text a startup-only variable keeps for val: a
// number is read as --set reads it, and one out of the variable's range
// or not a number is refused, as --set refuses it.
func startupValue(key, val string) (string, error) {
	d, err := sysvar.Lookup(key)
	if err != nil || d.Kind != sysvar.KindInt {
		return val, nil
	}
	text, warn, err := sysvar.Normalize(d, sysvar.Literal(val))
	if err != nil {
		return "", err
	}
	if warn != nil {
		return "", sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s' (out of range)", key, val)
	}
	return text, nil
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
