package server

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/plrun/plrun/sql/acl"
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

// Users maps login names to passwords: the accounts a first start
// seeds (Config.Users). A login "user@tenant" (OceanBase's form, used by
// the seed's ob_elr.py as root@test) that matches no account of its own
// authenticates as "user" (acl.State.MatchLogin).
type Users map[string]string

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

// accountSecrets is Secrets for one login: the account it matched in
// the catalog (nil: none, so nothing is proved). The user argument is
// the login name the cache is keyed by; the account is already chosen.
type accountSecrets struct {
	cat  *acl.Catalog
	acct *acl.Account
}

var _ Secrets = accountSecrets{}

// CheckNative implements Secrets: the scramble against the stored
// mysql_native_password hash.
func (a accountSecrets) CheckNative(_ string, salt, scramble []byte) bool {
	return a.acct != nil && acl.CheckNative(a.acct, salt, scramble)
}

// CheckCleartext implements Secrets: the password against the stored
// secret (sha256-crypt for caching_sha2_password).
func (a accountSecrets) CheckCleartext(_, password string) bool {
	return a.acct != nil && a.cat.CheckCleartext(a.acct, password)
}

// SecretVersion implements Secrets: the account and its stored secret,
// which changes with the password.
func (a accountSecrets) SecretVersion(string) (string, bool) {
	if a.acct == nil {
		return "", false
	}
	return a.acct.User + "\x00" + a.acct.Host + "\x00" + a.acct.Plugin + "\x00" + a.acct.Auth, true
}
