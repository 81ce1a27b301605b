package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Certificate files in the data folder, named as MySQL's
// auto_generate_certs names them, and the RSA key pair of
// caching_sha2_password_auto_generate_rsa_keys.
const (
	caCertFile     = "ca.pem"
	caKeyFile      = "ca-key.pem"
	serverCertFile = "server-cert.pem"
	serverKeyFile  = "server-key.pem"
	rsaPrivateFile = "private_key.pem"
	rsaPublicFile  = "public_key.pem"
)

// certValidity is how long generated certificates are valid (MySQL: 10 years).
const certValidity = 10 * 365 * 24 * time.Hour

// autoCerts returns the paths of the data folder's CA and server
// certificate and key, generating them at first start: a self-signed CA
// and a server certificate it signs, for localhost, 127.0.0.1, ::1 and
// the host's name. server-cert.pem is written last, so a start that
// finds it finds the others complete; a start that does not (a first
// start, or one that crashed while generating) generates all four.
func autoCerts(dir string) (ca, cert, key string, err error) {
	ca, cert, key = filepath.Join(dir, caCertFile), filepath.Join(dir, serverCertFile), filepath.Join(dir, serverKeyFile)
	if _, err := os.Stat(cert); err == nil {
		for _, f := range []string{ca, key} {
			if _, err := os.Stat(f); err != nil {
				return "", "", "", fmt.Errorf("TLS: %s exists but %w (remove %s to generate new certificates)", cert, err, cert)
			}
		}
		return ca, cert, key, nil
	}
	return ca, cert, key, generateCerts(dir)
}

func generateCerts(dir string) error {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "plrun_Auto_Generated_CA_Certificate"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "plrun_Auto_Generated_Server_Certificate"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(certValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if h, err := os.Hostname(); err == nil && h != "" && h != "localhost" {
		srvTmpl.DNSNames = append(srvTmpl.DNSNames, h)
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caKeyPEM, err := ecKeyPEM(caKey)
	if err != nil {
		return err
	}
	srvKeyPEM, err := ecKeyPEM(srvKey)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{caKeyFile, caKeyPEM, 0o600},
		{caCertFile, certPEM(caDER), 0o644},
		{serverKeyFile, srvKeyPEM, 0o600},
		{serverCertFile, certPEM(srvDER), 0o644}, // last: see autoCerts
	} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// autoRSAKey reads the data folder's private_key.pem, generating it (and
// public_key.pem) at first start: caching_sha2_password's key for full
// authentication without TLS.
func autoRSAKey(dir string) (*rsa.PrivateKey, error) {
	path := filepath.Join(dir, rsaPrivateFile)
	data, err := os.ReadFile(path)
	if err == nil {
		block, _ := pem.Decode(data)
		if block == nil || block.Type != "RSA PRIVATE KEY" {
			return nil, fmt.Errorf("%s: not a PEM RSA PRIVATE KEY", path)
		}
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pub, err := encodePublicKey(key)
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, rsaPublicFile), pub, 0o644); err != nil {
		return nil, err
	}
	priv := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	return key, writeFileAtomic(path, priv, 0o600)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

func certPEM(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func ecKeyPEM(k *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// writeFileAtomic writes data to path through a synced temporary file
// renamed over it, so a crash leaves the old file or the whole new one,
// never half a key; the file is created with mode from the start.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil { // a leftover tmp may have had another mode
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// IsDataFile reports whether name, in a data folder, is one of the files
// `plrun serve` writes there (the certificates and keys above, or one of
// their temporary files): the data folder's owner must not take them for
// foreign files.
func IsDataFile(name string) bool {
	switch strings.TrimSuffix(name, ".tmp") {
	case caCertFile, caKeyFile, serverCertFile, serverKeyFile, rsaPrivateFile, rsaPublicFile:
		return true
	}
	return false
}
