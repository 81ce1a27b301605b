package dataio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/plrun/plrun/sqlerr"
)

// ErrFilePriv is MariaDB's refusal of a file outside secure_file_priv.
var ErrFilePriv = sqlerr.New(sqlerr.ErOptionPreventsStatement, "The plrun server is running with the --secure-file-priv option so it cannot execute this statement")

// CheckFilePriv applies secure_file_priv (priv) to a file a statement reads, as
// MySQL does for LOAD DATA: "" allows any path, "NULL" none, a folder
// only paths inside it.
func CheckFilePriv(priv, path string) error {
	if priv == "" {
		return nil
	}
	denied := ErrFilePriv
	if strings.EqualFold(priv, "NULL") {
		return denied
	}
	root, err := filepath.EvalSymlinks(priv)
	if err != nil {
		return denied
	}
	target, err := filepath.Abs(path)
	if err != nil {
		return denied
	}
	if t, err := filepath.EvalSymlinks(target); err == nil {
		target = t
	}
	if rootAbs, err := filepath.Abs(root); err == nil {
		root = rootAbs
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return denied
	}
	return nil
}

// serverFilePath is the absolute path of a file a statement reads or
// writes on the server, after secure_file_priv. MariaDB puts a relative
// path in the database's directory; plrun has none, so it refuses one.
func serverFilePath(h Host, path, what string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'a relative %s path (give an absolute one)'", what)
	}
	if err := CheckFilePriv(h.SysVar("secure_file_priv"), path); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		// MariaDB cannot resolve the folder, so it refuses as for
		// secure_file_priv (1290), whatever the setting.
		return "", ErrFilePriv
	}
	return filepath.Clean(path), nil
}

// fileError maps a file's open or write error to MariaDB's.
func fileError(err error, path string) error {
	var errno syscall.Errno
	code := 0
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	if errors.As(err, &errno) {
		code = int(errno)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return sqlerr.New(sqlerr.ErFileExists, "File '%s' already exists", path)
	case errors.Is(err, fs.ErrNotExist) && code == 0:
		code = int(syscall.ENOENT)
	}
	if len(msg) > 0 {
		msg = string(msg[0]-'a'+'A') + msg[1:]
	}
	return sqlerr.New(sqlerr.ErCantCreateFile, "Can't create/write to file '%s' (Errcode: %d \"%s\")", path, code, msg)
}
