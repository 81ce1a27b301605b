package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"os"
	"strings"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Secrets is how the server checks what a client proves at login; the
// account catalog plugs in here (Config.Secrets). The server runs the
// protocol exchanges and the caching_sha2_password fast-auth cache
// (sha2auth.go); a Secrets only answers for one secret at a time.
type Secrets interface {
	// CheckNative reports whether scramble is mysql_native_password's
	// answer to salt for user's password. An empty scramble is an empty
	// password.
	CheckNative(user string, salt, scramble []byte) bool
	// CheckCleartext reports whether password is user's password
	// (caching_sha2_password's full authentication, over TLS or RSA).
	CheckCleartext(user, password string) bool
	// SecretVersion identifies user's current secret; it must change
	// when the password does, so that a fast-auth cache entry of the old
	// password stops working. ok is false for an unknown user.
	SecretVersion(user string) (version string, ok bool)
}

// Users is the Secrets of a fixed set of plaintext passwords
// (--user/--password, --users-file).
var _ Secrets = Users(nil)

// Users maps login names to passwords. A login "user@tenant" (OceanBase's
// form, used by the seed's ob_elr.py as root@test) that is not itself
// configured authenticates as "user"; both parts must be non-empty.
type Users map[string]string

// lookup returns the password of a login name.
func (u Users) lookup(login string) (string, bool) {
	if p, ok := u[login]; ok {
		return p, true
	}
	if i := strings.IndexByte(login, '@'); i > 0 && i < len(login)-1 {
		p, ok := u[login[:i]]
		return p, ok
	}
	return "", false
}

// ReadUsersFile reads "name:password" lines ('#' starts a comment line;
// the password is everything after the first ':', and may be empty).
func ReadUsersFile(path string) (Users, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	users := Users{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, password, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s:%d: want name:password", path, n)
		}
		users[name] = password
	}
	return users, sc.Err()
}

// CheckNative implements Secrets.
func (u Users) CheckNative(user string, salt, scramble []byte) bool {
	password, ok := u.lookup(user)
	return ok && checkScramble(mysql.AUTH_NATIVE_PASSWORD, salt, scramble, password)
}

// CheckCleartext implements Secrets.
func (u Users) CheckCleartext(user, password string) bool {
	want, ok := u.lookup(user)
	return ok && subtle.ConstantTimeCompare([]byte(want), []byte(password)) == 1
}

// SecretVersion implements Secrets: a digest of the password.
func (u Users) SecretVersion(user string) (string, bool) {
	password, ok := u.lookup(user)
	if !ok {
		return "", false
	}
	sum := sha256.Sum256([]byte(password))
	return string(sum[:]), true
}
