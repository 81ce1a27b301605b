package server

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"sync"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// caching_sha2_password, as MySQL 8 runs it. The client's first answer is
// a scramble, XOR(SHA256(pw), SHA256(SHA256(SHA256(pw)) || salt)), which
// the server can check only if it holds SHA256(SHA256(pw)) for that
// account: the fast-auth cache, filled by a successful full
// authentication. On a hit the server sends fast_auth_success (0x01 0x03)
// and OK. On a miss (first login since start, or a wrong scramble) it
// sends perform_full_authentication (0x01 0x04) and the client sends its
// password: in clear over TLS; otherwise RSA-encrypted with the server's
// public key, which the client may first ask for (0x02). Without TLS and
// without an RSA key the login is refused (1045), as MySQL refuses it.

// Auth-more-data payloads of caching_sha2_password.
const (
	sha2FastAuthSuccess    = 3
	sha2PerformFullAuth    = 4
	sha2RequestPublicKey   = 2
	sha2FastAuthCacheLimit = 10000 // entries; past it the cache starts over
)

// fastAuthCache maps a login name to SHA256(SHA256(password)) of its last
// full authentication, with the secret version it was checked against.
type fastAuthCache struct {
	mu      sync.Mutex
	entries map[string]fastAuthEntry
}

type fastAuthEntry struct {
	digest  [32]byte // SHA256(SHA256(password))
	version string   // Secrets.SecretVersion when filled
}

// check reports whether scramble proves the cached password of user for
// salt, and the entry is of user's current secret.
func (c *fastAuthCache) check(user, version string, salt, scramble []byte) bool {
	c.mu.Lock()
	e, ok := c.entries[user]
	c.mu.Unlock()
	if !ok || e.version != version || len(scramble) != sha256.Size {
		return false
	}
	h := sha256.New()
	h.Write(e.digest[:])
	h.Write(salt)
	stage1 := h.Sum(nil) // XOR mask over SHA256(pw)
	for i := range stage1 {
		stage1[i] ^= scramble[i]
	}
	got := sha256.Sum256(stage1)
	return subtle.ConstantTimeCompare(got[:], e.digest[:]) == 1
}

func (c *fastAuthCache) fill(user, version, password string) {
	h1 := sha256.Sum256([]byte(password))
	e := fastAuthEntry{digest: sha256.Sum256(h1[:]), version: version}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= sha2FastAuthCacheLimit {
		c.entries = map[string]fastAuthEntry{}
	}
	c.entries[user] = e
}

// flush empties the cache ("" ) or drops one login's entry.
func (c *fastAuthCache) flush(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if user == "" {
		c.entries = nil
		return
	}
	delete(c.entries, user)
}

// FlushFastAuth forgets caching_sha2_password's cached secret of one
// login name, or of all ("") as FLUSH PRIVILEGES does in MySQL: its next
// login authenticates fully. Secrets.SecretVersion already makes a
// changed password miss the cache; this is for removing access at once.
func (s *Server) FlushFastAuth(user string) { s.fastAuth.flush(user) }

// cachingSha2 authenticates user under caching_sha2_password, whose
// first answer (to salt) was auth.
func (s *Server) cachingSha2(w *wire, c *conn, sec Secrets, salt []byte, user string, auth []byte) error {
	if len(auth) == 0 || len(auth) == 1 && auth[0] == 0 {
		// No password sent: no exchange, as MySQL (an empty password).
		if sec.CheckCleartext(user, "") {
			return nil
		}
		return s.deny(w, c, user, false)
	}
	version, known := sec.SecretVersion(user)
	// After an auth switch pymysql scrambles with the request's whole
	// payload, the salt's terminating NUL included (go-sql-driver and
	// libmariadb drop it): either proves the cached password.
	if known && (s.fastAuth.check(user, version, salt, auth) || s.fastAuth.check(user, version, append(salt[:len(salt):len(salt)], 0), auth)) {
		return w.writePacket([]byte{mysql.MORE_DATE_HEADER, sha2FastAuthSuccess})
	}
	if err := w.writePacket([]byte{mysql.MORE_DATE_HEADER, sha2PerformFullAuth}); err != nil {
		return err
	}
	password, err := s.fullAuthPassword(w, c, salt)
	if err != nil {
		if errors.Is(err, errNoPassword) {
			return s.deny(w, c, user, true)
		}
		return err
	}
	if !known || !sec.CheckCleartext(user, password) {
		return s.deny(w, c, user, true)
	}
	s.fastAuth.fill(user, version, password)
	return nil
}

// errNoPassword: the client's full-authentication answer did not give a
// password the server can read (no TLS and no RSA key, or bad ciphertext).
var errNoPassword = errors.New("caching_sha2_password: no readable password")

// fullAuthPassword reads the password of a full authentication: in clear
// (NUL-terminated) over TLS, else RSA-OAEP encrypted, XORed with salt.
func (s *Server) fullAuthPassword(w *wire, c *conn, salt []byte) (string, error) {
	data, err := w.readPacket()
	if err != nil {
		return "", err
	}
	if c.secure {
		return string(bytes.TrimSuffix(data, []byte{0})), nil
	}
	key := s.cfg.RSAKey
	if key == nil {
		return "", errNoPassword
	}
	if len(data) == 1 && data[0] == sha2RequestPublicKey {
		if err := w.writePacket(append([]byte{mysql.MORE_DATE_HEADER}, s.publicKeyPEM...)); err != nil {
			return "", err
		}
		if data, err = w.readPacket(); err != nil {
			return "", err
		}
	}
	plain, err := rsa.DecryptOAEP(sha1.New(), nil, key, data, nil)
	if err != nil || len(salt) == 0 {
		return "", errNoPassword
	}
	for i := range plain {
		plain[i] ^= salt[i%len(salt)]
	}
	return string(bytes.TrimSuffix(plain, []byte{0})), nil
}

// encodePublicKey is key's public half as the PEM MySQL sends (and
// writes to public_key.pem).
func encodePublicKey(key *rsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}
