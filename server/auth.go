package server

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

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
