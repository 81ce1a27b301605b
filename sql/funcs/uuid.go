package funcs

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"github.com/plrun/plrun/sql/expr"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/types"
)

// uuidState is what UUID() and UUID_SHORT() keep across calls, as the
// server does: one node and clock sequence per process (MariaDB takes
// the node from a MAC address; plrun draws a random one with the
// multicast bit set, as RFC 4122 allows) and a strictly rising clock.
var uuidState struct {
	once     sync.Once
	node     [6]byte
	clockSeq uint16
	mu       sync.Mutex
	last     uint64
	short    atomic.Uint64
}

func uuidInit() {
	var b [8]byte
	_, _ = rand.Read(b[:])
	copy(uuidState.node[:], b[:6])
	uuidState.node[0] |= 1
	uuidState.clockSeq = binary.BigEndian.Uint16(b[6:]) & 0x3fff
	// UUID_SHORT: (server_id << 56) + (startup seconds << 24), then +1 a call
	uuidState.short.Store(uint64(time.Now().Unix()) << 24)
}

// newUUID is a version 1 UUID: 100 ns ticks since 1582-10-15.
func newUUID() string {
	uuidState.once.Do(uuidInit)
	uuidState.mu.Lock()
	ticks := uint64(time.Now().UnixNano()/100) + 0x01B21DD213814000
	if ticks <= uuidState.last {
		ticks = uuidState.last + 1
	}
	uuidState.last = ticks
	uuidState.mu.Unlock()
	var u [16]byte
	binary.BigEndian.PutUint32(u[0:], uint32(ticks))
	binary.BigEndian.PutUint16(u[4:], uint16(ticks>>32))
	binary.BigEndian.PutUint16(u[6:], uint16(ticks>>48)&0x0fff|0x1000)
	binary.BigEndian.PutUint16(u[8:], uuidState.clockSeq|0x8000)
	copy(u[10:], uuidState.node[:])
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// uuidFunc compiles UUID() and UUID_SHORT(): a new value each call.
func uuidFunc(f *expr.Call) (*expr.Expr, error) {
	var e *expr.Expr
	switch f.Name {
	case "uuid":
		if err := f.NArgs(0, 0); err != nil {
			return nil, err
		}
		e = f.Mk(types.ColType{Base: types.TVarchar, Length: 36}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.StringValue(newUUID()), nil
		})
	case "uuid_short":
		if err := f.NArgs(0, 0); err != nil {
			return nil, err
		}
		e = f.Mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			uuidState.once.Do(uuidInit)
			return types.UintValue(uuidState.short.Add(1)), nil
		})
	default:
		return nil, nil
	}
	e.IsConst = false
	return e, nil
}
