package server

import (
	"crypto/rsa"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// tlsFlags are `plrun serve`'s TLS flags (README "TLS").
type tlsFlags struct {
	mode, cert, key *string
}

func registerTLSFlags(fs *flag.FlagSet) *tlsFlags {
	return &tlsFlags{
		mode: fs.String("tls", "auto", "TLS on the MySQL port: auto (--tls-cert/--tls-key, or certificates generated into --data at first start) or off"),
		cert: fs.String("tls-cert", "", "server certificate (PEM); with --tls-key, instead of the generated ones"),
		key:  fs.String("tls-key", "", "private key of --tls-cert (PEM)"),
	}
}

// tlsVariables are the read-only variables the TLS flags set; --set may
// not give them.
var tlsVariables = []string{"have_ssl", "ssl_ca", "ssl_cert", "ssl_key", "tls_version"}

// setup loads or generates what the flags ask for in dataDir: the TLS
// configuration (nil with --tls=off) and caching_sha2_password's RSA key,
// and records the TLS variables in settings.
func (f *tlsFlags) setup(dataDir string, settings map[string]string) (*tls.Config, *rsa.PrivateKey, error) {
	for _, name := range tlsVariables {
		if _, ok := settings[name]; ok {
			return nil, nil, fmt.Errorf("--set %s: read-only, set by the --tls flags", name)
		}
	}
	if (*f.cert == "") != (*f.key == "") {
		return nil, nil, errors.New("--tls-cert and --tls-key go together")
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, nil, err
	}
	rsaKey, err := autoRSAKey(dataDir)
	if err != nil {
		return nil, nil, fmt.Errorf("caching_sha2_password RSA key: %w", err)
	}
	switch *f.mode {
	case "off":
		if *f.cert != "" {
			return nil, nil, errors.New("--tls=off with --tls-cert: choose one")
		}
		settings["have_ssl"] = "DISABLED"
		return nil, rsaKey, nil
	case "auto":
	default:
		return nil, nil, fmt.Errorf("--tls %q: want auto or off", *f.mode)
	}
	ca, cert, key := "", *f.cert, *f.key
	if cert == "" {
		if ca, cert, key, err = autoCerts(dataDir); err != nil {
			return nil, nil, err
		}
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, nil, fmt.Errorf("TLS: %w", err)
	}
	for name, path := range map[string]string{"ssl_ca": ca, "ssl_cert": cert, "ssl_key": key} {
		if path != "" {
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
		}
		settings[name] = path
	}
	settings["have_ssl"] = "YES"
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, rsaKey, nil
}
