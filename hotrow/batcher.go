package hotrow

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/internal/histogram"
)

// Member is one statement in a group. The sql layer embeds what it needs
// (session, arguments, result) in Payload and fills Err.
type Member struct {
	Payload any
	Err     error
	done    chan struct{}
}

// Group is the set of members run together.
type Group struct {
	members []*Member
	closed  bool
	joined  chan struct{} // capacity 1: a follower joined
}

// maxContendedKeys bounds the memory of which keys were contended.
const maxContendedKeys = 4096

// Stats are the Group_update_* counters.
type Stats struct {
	Groups       uint64 // groups run (one leader each)
	Followers    uint64 // members that joined a leader's group
	MaxGroupSize uint64
}

// Batcher groups members by key.
type Batcher struct {
	mu   sync.Mutex
	open map[string]*Group
	// contended remembers keys whose last group had followers: only a
	// leader of such a key waits for a first follower, so an uncontended
	// row never pays the wait (timer waits this short cost far more than
	// their nominal time on some machines).
	contended map[string]bool

	groups, followers, maxSize atomic.Uint64
	// groupSize is the members per group run, leader included.
	groupSize *histogram.Histogram
}

// New returns an empty Batcher.
func New() *Batcher {
	return &Batcher{open: map[string]*Group{}, contended: map[string]bool{}, groupSize: histogram.New(1, 14)}
}

// Submit runs m as part of a group for key. If m leads, lead is called
// first with the group still open (e.g. to take the row lock while others
// join); if lead fails, the group is closed, m gets lead's error and the
// followers are run without it by run. Then the leader waits up to maxWait
// for a first follower if it is alone and the key's previous group had
// followers, closes the group and calls run with every member, leader
// first. Submit returns when m's outcome is known.
func (b *Batcher) Submit(key string, maxWait time.Duration, m *Member, lead func() error, run func(members []*Member)) {
	m.done = make(chan struct{})
	b.mu.Lock()
	if g := b.open[key]; g != nil && !g.closed {
		g.members = append(g.members, m)
		select {
		case g.joined <- struct{}{}:
		default:
		}
		b.mu.Unlock()
		<-m.done
		return
	}
	g := &Group{members: []*Member{m}, joined: make(chan struct{}, 1)}
	b.open[key] = g
	b.mu.Unlock()

	leadErr := lead()
	if leadErr == nil && maxWait > 0 {
		b.mu.Lock()
		alone := len(g.members) == 1 && b.contended[key]
		b.mu.Unlock()
		if alone {
			t := time.NewTimer(maxWait)
			select {
			case <-g.joined:
			case <-t.C:
			}
			t.Stop()
		}
	}
	b.mu.Lock()
	g.closed = true
	if b.open[key] == g {
		delete(b.open, key)
	}
	members := g.members
	if len(members) > 1 {
		if len(b.contended) >= maxContendedKeys {
			clear(b.contended)
		}
		b.contended[key] = true
	} else {
		delete(b.contended, key)
	}
	b.mu.Unlock()

	b.groups.Add(1)
	b.followers.Add(uint64(len(members) - 1))
	b.groupSize.Observe(uint64(len(members)))
	for {
		cur := b.maxSize.Load()
		if uint64(len(members)) <= cur || b.maxSize.CompareAndSwap(cur, uint64(len(members))) {
			break
		}
	}
	if leadErr != nil {
		m.Err = leadErr
		members = members[1:]
	}
	if len(members) > 0 {
		run(members)
	}
	for _, x := range members {
		if x != m {
			close(x.done)
		}
	}
}

// GroupSizes returns the distribution of group sizes (members, leader
// included), 1 .. 8192 and more.
func (b *Batcher) GroupSizes() histogram.Snapshot { return b.groupSize.Snapshot() }

// Stats returns the counters.
func (b *Batcher) Stats() Stats {
	return Stats{Groups: b.groups.Load(), Followers: b.followers.Load(), MaxGroupSize: b.maxSize.Load()}
}
