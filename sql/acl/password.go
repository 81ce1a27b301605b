package acl

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// The authentication plugins plrun stores secrets for.
const (
	NativePassword      = "mysql_native_password"
	CachingSHA2Password = "caching_sha2_password"
)

// NativeHash is mysql_native_password's stored secret for password:
// "*" + HEX(SHA1(SHA1(password))), as PASSWORD() prints it; "" for an
// empty password.
func NativeHash(password string) string {
	if password == "" {
		return ""
	}
	h1 := sha1.Sum([]byte(password))
	h2 := sha1.Sum(h1[:])
	return "*" + strings.ToUpper(hex.EncodeToString(h2[:]))
}

// validNativeHash reports whether s is a stored mysql_native_password
// secret (what IDENTIFIED BY PASSWORD / AS accept): "" or "*" and 40 hex
// digits.
func validNativeHash(s string) bool {
	if s == "" {
		return true
	}
	if len(s) != 41 || s[0] != '*' {
		return false
	}
	_, err := hex.DecodeString(s[1:])
	return err == nil
}

// checkNativeScramble reports whether auth is the client's
// mysql_native_password answer to salt for the account whose stored
// secret is stored ("*"+HEX(SHA1(SHA1(pw)))). The client sends
// SHA1(pw) XOR SHA1(salt + SHA1(SHA1(pw))); the server, knowing only
// SHA1(SHA1(pw)), recovers SHA1(pw) and checks that its SHA1 is stored.
func checkNativeScramble(stored string, salt, auth []byte) bool {
	if stored == "" || len(auth) != sha1.Size {
		return false
	}
	want, err := hex.DecodeString(stored[1:])
	if err != nil || len(want) != sha1.Size {
		return false
	}
	h := sha1.New()
	h.Write(salt)
	h.Write(want)
	mask := h.Sum(nil)
	stage1 := make([]byte, sha1.Size)
	for i := range stage1 {
		stage1[i] = auth[i] ^ mask[i]
	}
	got := sha1.Sum(stage1)
	return subtle.ConstantTimeCompare(got[:], want) == 1
}

// sha2Rounds is caching_sha2_password's sha256-crypt iteration count
// (MySQL's default: "005" thousand).
const (
	sha2Rounds  = 5000
	sha2SaltLen = 20
	sha2Prefix  = "$A$005$"
)

// SHA2Hash is caching_sha2_password's stored secret for password, as
// MySQL writes it: "$A$005$" + a 20-character salt + sha256-crypt of the
// password with that salt and 5000 rounds (43 characters); "" for an
// empty password.
func SHA2Hash(password string) string {
	if password == "" {
		return ""
	}
	salt := make([]byte, sha2SaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic("acl: no randomness for a password salt: " + err.Error())
	}
	for i, b := range salt {
		// MySQL's salt is printable and never '$' (the field separator).
		b = b&0x7f%94 + 33
		if b == '$' {
			b = '%'
		}
		salt[i] = b
	}
	return sha2Prefix + string(salt) + sha256Crypt([]byte(password), salt, sha2Rounds)
}

// validSHA2Hash reports whether s is a stored caching_sha2_password
// secret this package can check (what IDENTIFIED WITH ... AS accepts).
func validSHA2Hash(s string) bool {
	return s == "" || len(s) == len(sha2Prefix)+sha2SaltLen+43 && strings.HasPrefix(s, sha2Prefix)
}

// checkSHA2Password reports whether password is the one stored (a
// caching_sha2_password secret).
func checkSHA2Password(stored, password string) bool {
	if stored == "" || password == "" {
		return stored == password
	}
	if !validSHA2Hash(stored) {
		return false
	}
	salt := stored[len(sha2Prefix) : len(sha2Prefix)+sha2SaltLen]
	got := sha256Crypt([]byte(password), []byte(salt), sha2Rounds)
	return subtle.ConstantTimeCompare([]byte(got), []byte(stored[len(sha2Prefix)+sha2SaltLen:])) == 1
}
