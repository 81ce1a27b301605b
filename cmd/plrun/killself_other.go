//go:build !unix

package main

import "errors"

// killSelf: without SIGKILL there is no crash to leave behind.
func killSelf() error {
	return errors.New("cannot SIGKILL this process on this system; the database was closed cleanly instead")
}
