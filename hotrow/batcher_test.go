package hotrow

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// TestFollowersRunWithTheLeader: members that arrive while the leader is
// in lead() run in its group, leader first, and each gets its own outcome.
func TestFollowersRunWithTheLeader(t *testing.T) {
	b := New()
	release := make(chan struct{})
	var ran [][]int
	var wg sync.WaitGroup
	run := func(ms []*Member) {
		var ids []int
		for _, m := range ms {
			id := m.Payload.(int)
			ids = append(ids, id)
			if id == 2 {
				m.Err = errors.New("member 2 fails alone")
			}
		}
		ran = append(ran, ids)
	}
	leader := &Member{Payload: 0}
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Submit("k", 0, leader, func() error { <-release; return nil }, run)
	}()
	waitOpen(t, b, "k")
	followers := []*Member{{Payload: 1}, {Payload: 2}, {Payload: 3}}
	for _, f := range followers {
		wg.Add(1)
		go func(f *Member) {
			defer wg.Done()
			b.Submit("k", 0, f, func() error { t.Error("a follower led"); return nil }, run)
		}(f)
	}
	waitMembers(t, b, "k", 4)
	close(release)
	wg.Wait()
	if len(ran) != 1 || len(ran[0]) != 4 || ran[0][0] != 0 {
		t.Fatalf("groups run: %v, want one group led by member 0 with all 4", ran)
	}
	if leader.Err != nil || followers[0].Err != nil || followers[1].Err == nil || followers[2].Err != nil {
		t.Fatalf("outcomes: leader %v, followers %v %v %v", leader.Err, followers[0].Err, followers[1].Err, followers[2].Err)
	}
	if s := b.Stats(); s.Groups != 1 || s.Followers != 3 || s.MaxGroupSize != 4 {
		t.Fatalf("stats %+v", s)
	}
	// One group of 4: in the bucket bounded by 4 (bounds 1, 2, 4, ...).
	if h := b.GroupSizes(); h.Count != 1 || h.Sum != 4 || h.Counts[2] != 1 {
		t.Fatalf("group sizes %+v, want one group of 4", h)
	}
}

// TestLeadFailureLeavesFollowersToRun: if lead fails, the leader gets its
// error and the followers still run.
func TestLeadFailureLeavesFollowersToRun(t *testing.T) {
	b := New()
	release := make(chan struct{})
	leader := &Member{Payload: 0}
	follower := &Member{Payload: 1}
	var ran []int
	run := func(ms []*Member) {
		for _, m := range ms {
			ran = append(ran, m.Payload.(int))
		}
	}
	done := make(chan struct{})
	go func() {
		b.Submit("k", 0, leader, func() error { <-release; return errors.New("lock wait timeout") }, run)
		close(done)
	}()
	waitOpen(t, b, "k")
	go b.Submit("k", 0, follower, nil, run)
	waitMembers(t, b, "k", 2)
	close(release)
	<-done
	if leader.Err == nil || len(ran) != 1 || ran[0] != 1 {
		t.Fatalf("leader err %v, run %v: want the leader's error and the follower run alone", leader.Err, ran)
	}
}

func waitOpen(t *testing.T, b *Batcher, key string) { waitMembers(t, b, key, 1) }

func waitMembers(t *testing.T, b *Batcher, key string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		g := b.open[key]
		got := 0
		if g != nil {
			got = len(g.members)
		}
		b.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %q has %d members, want %d", key, got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
