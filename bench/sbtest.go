package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/plrun/plrun"
)

// The sysbench table of issue 15's measurements, as sysbench 1.0's
// oltp_common.lua makes it for MySQL with its defaults (auto_inc on,
// create_secondary on): database sbtest, table sbtest1 created without
// the secondary key, filled with multi-row INSERTs of (k, c, pad), then
// `CREATE INDEX k_1 ON sbtest1(k)`. Its shape is
// `id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, c CHAR(120),
// pad CHAR(60), PRIMARY KEY (id), KEY k_1 (k)`.
const (
	SbtestDatabase = "sbtest"
	SbtestCreate   = "CREATE TABLE sbtest1(\n" +
		"  id INTEGER NOT NULL AUTO_INCREMENT,\n" +
		"  k INTEGER DEFAULT '0' NOT NULL,\n" +
		"  c CHAR(120) DEFAULT '' NOT NULL,\n" +
		"  pad CHAR(60) DEFAULT '' NOT NULL,\n" +
		"  PRIMARY KEY (id)\n" +
		")"
	SbtestIndex       = "CREATE INDEX k_1 ON sbtest1(k)"
	SbtestInsertHead  = "INSERT INTO sbtest1(k, c, pad) VALUES"
	SbtestPointSelect = "SELECT c FROM sbtest1 WHERE id=?"
	SbtestIndexUpdate = "UPDATE sbtest1 SET k=k+1 WHERE id=?"
)

// sbtestRows makes sysbench's row values: k uniform in [1, tableSize];
// c is 10 groups of 11 random digits joined by '-' (119 characters,
// oltp_common.lua's get_c_value), pad 5 such groups (59 characters).
type sbtestRows struct {
	rnd       *rand.Rand
	tableSize int64
}

func newSbtestRows(tableSize int64, seed uint64) *sbtestRows {
	return &sbtestRows{rnd: rand.New(rand.NewPCG(seed, uint64(tableSize))), tableSize: max(tableSize, 1)}
}

// digitGroups appends groups of 11 random digits joined by '-'.
func (r *sbtestRows) digitGroups(b []byte, groups int) []byte {
	for g := 0; g < groups; g++ {
		if g > 0 {
			b = append(b, '-')
		}
		for i := 0; i < 11; i++ {
			b = append(b, byte('0'+r.rnd.IntN(10)))
		}
	}
	return b
}

// appendRow appends one row of the INSERT, "(k, 'c', 'pad')", as
// oltp_common.lua formats it.
func (r *sbtestRows) appendRow(b []byte) []byte {
	b = append(b, '(')
	b = strconv.AppendInt(b, 1+r.rnd.Int64N(r.tableSize), 10)
	b = append(b, ", '"...)
	b = r.digitGroups(b, 10)
	b = append(b, "', '"...)
	b = r.digitGroups(b, 5)
	return append(b, "')"...)
}

// insert is one multi-row INSERT of n rows, reusing buf.
func (r *sbtestRows) insert(buf []byte, n int) []byte {
	b := append(buf[:0], SbtestInsertHead...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.appendRow(b)
	}
	return b
}

// sbtestMaxID is the largest id of a loaded sbtest1, whose ids are
// 1..N without gaps: found by point selects (doubling, then bisecting),
// about 2·log2(N) of them, so that no scan of the table runs before the
// memory is measured.
func sbtestMaxID(ctx context.Context, s *plrun.Session) (int64, error) {
	has := func(id int64) (bool, error) {
		r, err := s.Query(ctx, "SELECT id FROM sbtest1 WHERE id=?", id)
		if err != nil {
			return false, fmt.Errorf("bench: finding sbtest1's ids: %w", err)
		}
		return len(r.Rows) == 1, nil
	}
	if ok, err := has(1); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: sbtest1 has no row id=1 (not a table plrun bench load made)", ErrVerify)
		}
		return 0, err
	}
	lo, hi := int64(1), int64(2) // has(lo); hi is probed next
	for {
		ok, err := has(hi)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		if hi > math.MaxInt32 {
			return 0, fmt.Errorf("%w: sbtest1's ids go past %d", ErrVerify, hi)
		}
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 { // has(lo), !has(hi)
		mid := lo + (hi-lo)/2
		ok, err := has(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}
