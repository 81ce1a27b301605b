package acl

import (
	"context"
	"crypto/subtle"
	"sync"
	"sync/atomic"

	"github.com/plrun/plrun/txn"
)

// Op is the DDL record operation that carries an account change.
const Op = "accounts"

// Journal is where an account change is logged: txn.Manager.LogDDL
// appends the record and runs apply while no commit is between Append
// and install, then waits until it is durable.
type Journal interface {
	LogDDL(ctx context.Context, rec *txn.DDLRecord, apply func() error) error
}

// Catalog is the account catalog of one open database: the current State
// behind an atomic pointer, so every statement's privilege check reads it
// without a lock.
type Catalog struct {
	state atomic.Pointer[State]
	// mu serializes changes: each reads the current State, builds the
	// next, logs it and publishes it, so two account statements never
	// build on the same State. Lock order: mu → the commit latch.
	mu sync.Mutex
}

// New is an empty catalog.
func New() *Catalog {
	c := &Catalog{}
	c.state.Store(emptyState())
	return c
}

// Current is the catalog's State now.
func (c *Catalog) Current() *State { return c.state.Load() }

// Restore replaces the State with one Encode wrote (a snapshot or an
// accounts record at recovery).
func (c *Catalog) Restore(b []byte) error {
	s, err := decodeState(b)
	if err != nil {
		return err
	}
	c.state.Store(s)
	return nil
}

// Replay applies an accounts DDL record at recovery; it reports whether
// rec was one.
func (c *Catalog) Replay(rec *txn.DDLRecord) (bool, error) {
	if rec.Op != Op {
		return false, nil
	}
	return true, c.Restore(rec.Accounts)
}

// change is what an account statement computes from the current State:
// the next State (nil: nothing to log) and what it tells the client.
type change struct {
	next  *State
	notes []Note
}

// apply runs build on the current State and, if it changed something,
// logs the whole next State as one accounts record and publishes it
// when the record is appended (so a crash after the client's OK never
// loses it: the OK waits for the record to be durable).
func (c *Catalog) apply(ctx context.Context, j Journal, build func(cur *State) (*change, error)) ([]Note, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// build may both change some accounts and fail for others (MariaDB's
	// CREATE USER a, b when b exists creates a): what it changed is
	// logged, and its error returned after.
	ch, buildErr := build(c.state.Load())
	if ch == nil || ch.next == nil {
		if ch != nil {
			return ch.notes, buildErr
		}
		return nil, buildErr
	}
	payload, err := ch.next.Encode()
	if err != nil {
		return nil, err
	}
	err = j.LogDDL(ctx, &txn.DDLRecord{Op: Op, Accounts: payload}, func() error {
		c.state.Store(ch.next)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ch.notes, buildErr
}

// CheckCleartext reports whether password is a's (caching_sha2_password's
// full authentication: the client sent the password itself, over TLS or
// RSA-encrypted). The fast-auth cache that a success fills is the
// server's.
func (c *Catalog) CheckCleartext(a *Account, password string) bool {
	if a.Plugin == CachingSHA2Password {
		return checkSHA2Password(a.Auth, password)
	}
	return subtle.ConstantTimeCompare([]byte(NativeHash(password)), []byte(a.Auth)) == 1
}

// CheckNative reports whether auth is a's mysql_native_password
// scramble of salt (an account without a password takes an empty
// answer only).
func CheckNative(a *Account, salt, auth []byte) bool {
	if len(auth) == 0 || len(auth) == 1 && auth[0] == 0 {
		return a.Auth == ""
	}
	return a.Plugin == NativePassword && checkNativeScramble(a.Auth, salt, auth)
}
