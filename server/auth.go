package server

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// Users maps login names to passwords. A login "user@tenant" (OceanBase's
// form, used by the seed's ob_elr.py as root@test) that is not itself
// configured authenticates as "user".
type Users map[string]string

// lookup returns the password of a login name.
func (u Users) lookup(login string) (string, bool) {
	if p, ok := u[login]; ok {
		return p, true
	}
	if i := strings.IndexByte(login, '@'); i > 0 {
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

// credentials is the go-mysql CredentialProvider over Users.
//
// An unknown login gets a random password nobody can match, so that it
// fails exactly like a wrong password does (1045 Access denied), as MySQL
// answers, instead of revealing which names exist.
type credentials struct{ users Users }

func (c credentials) CheckUsername(login string) (bool, error) {
	_, ok := c.users.lookup(login)
	return ok, nil
}

func (c credentials) GetCredential(login string) (string, bool, error) {
	if p, ok := c.users.lookup(login); ok {
		return p, true, nil
	}
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", false, err
	}
	return hex.EncodeToString(b[:]), true, nil
}
