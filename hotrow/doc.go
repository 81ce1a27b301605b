// Package hotrow is group update for hot rows, after PolarDB's hot-row
// optimization (seed 002): single-row UPDATEs of the same row that arrive
// together are run by one leader, in one transaction, under one row lock
// acquisition, and made durable by one commit record and one log sync.
//
//	Submit(key, m)
//	  ├─ no open group for key: m leads a new group
//	  │    leader: lead(first) — typically takes the row lock; followers
//	  │            join meanwhile; then, if it is alone and the key's last
//	  │            group had followers, waits up to maxWait for a first
//	  │            follower; closes the group (later arrivals
//	  │            open the next one) and calls run(members)
//	  └─ open group: m joins it as a follower and waits until run is done
//
// The package knows nothing of SQL: the sql layer supplies lead and run,
// which execute each member's statement (statement-level rollback of a
// failing member), commit once, and record each member's outcome in the
// Member before Submit returns to it.
//
// Concurrency: Batcher is safe for concurrent use; its mutex guards the
// open groups only and is never held while running statements. A follower
// blocks on its Member's done channel, closed by the leader after run.
// The group-size histogram is observed by the leader, outside the mutex.
package hotrow
