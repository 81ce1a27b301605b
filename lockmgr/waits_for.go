package lockmgr

import (
	"fmt"
	"sync"
	"time"
)

// waitsForGraph is the global waits-for graph used for deadlock detection.
// Each waiting txn has one out-edge: to the key it waits on, whose
// waitHolder is the txn holding it. Every change is made while also holding
// the shard mutex of the key concerned (lock order: shard, then graph), so the
// graph always agrees with the lock table and one walk under graph.mu sees a
// consistent picture across shards.
type waitsForGraph struct {
	mu struct {
		sync.Mutex
		waitingOn map[TxnID]waitEdge
	}
}

// waitEdge is a waiting txn's out-edge: the lock it waits on, with the
// key's name and the wait's start for reports (WaitOf, DeadlockError).
type waitEdge struct {
	ls    *lockState
	key   Key
	since time.Time
}

// enqueueLocked records that txn waits on ls (key) since since, unless that
// would close a cycle, in which case it records nothing and returns the
// cycle. The caller holds the shard mutex of ls, and ls is held by another
// txn.
func (g *waitsForGraph) enqueueLocked(txn TxnID, ls *lockState, key Key, since time.Time) []CycleEdge {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closesCycleLocked(txn, ls.holder) {
		return g.cycleLocked(txn, key, ls.holder)
	}
	if prev, ok := g.mu.waitingOn[txn]; ok {
		panic(fmt.Sprintf("lockmgr: txn %d waits on two keys (already on one held by txn %d)", txn, prev.ls.waitHolder))
	}
	g.mu.waitingOn[txn] = waitEdge{ls: ls, key: key, since: since}
	ls.waitHolder = ls.holder
	return nil
}

// closesCycleLocked walks from holder along the (functional) waits-for graph.
// Every cycle is refused when its last edge is added, so the walk either ends
// at a txn that waits on nothing or reaches requester.
func (g *waitsForGraph) closesCycleLocked(requester, holder TxnID) bool {
	for steps := 0; ; steps++ {
		if holder == requester {
			return true
		}
		e, waiting := g.mu.waitingOn[holder]
		if !waiting {
			return false
		}
		if steps > len(g.mu.waitingOn) {
			panic(fmt.Sprintf("lockmgr: waits-for graph has a cycle not through txn %d", requester))
		}
		holder = e.ls.waitHolder
	}
}

// cycleLocked lists the cycle closesCycleLocked found: requester -> key
// held by holder -> the key holder waits on -> ... -> requester. It runs
// only when a deadlock is refused.
func (g *waitsForGraph) cycleLocked(requester TxnID, key Key, holder TxnID) []CycleEdge {
	cycle := []CycleEdge{{Txn: requester, Key: key, Holder: holder}}
	for holder != requester {
		e := g.mu.waitingOn[holder]
		next := e.ls.waitHolder
		cycle = append(cycle, CycleEdge{Txn: holder, Key: e.key, Holder: next})
		holder = next
	}
	return cycle
}

// grantLocked records that txn, a waiter on ls, now holds it.
func (g *waitsForGraph) grantLocked(txn TxnID, ls *lockState) {
	g.mu.Lock()
	delete(g.mu.waitingOn, txn)
	ls.waitHolder = txn
	g.mu.Unlock()
}

// leaveLocked records that txn stopped waiting on ls without the lock.
func (g *waitsForGraph) leaveLocked(txn TxnID, _ *lockState) {
	g.mu.Lock()
	delete(g.mu.waitingOn, txn)
	g.mu.Unlock()
}

// isWaiting reports whether txn is queued on some key.
func (g *waitsForGraph) isWaiting(txn TxnID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.mu.waitingOn[txn]
	return ok
}

// waitOf is txn's queued wait, if it has one.
func (g *waitsForGraph) waitOf(txn TxnID) (Wait, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.mu.waitingOn[txn]
	if !ok {
		return Wait{}, false
	}
	return Wait{Key: e.key, Since: e.since, Holder: e.ls.waitHolder}, true
}
