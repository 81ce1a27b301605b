package server

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

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
