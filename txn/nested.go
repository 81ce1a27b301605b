package txn

// StatementState is a statement's snapshot, set aside while a statement
// nested in it (one a stored function runs, once per row) runs in the same
// transaction with a snapshot of its own. Without it the nested
// statement's EndStatement would leave the outer one reading the newest
// versions for the rest of its rows.
type StatementState struct {
	snap             uint64
	hasSnap, ownSnap bool
}

// SuspendStatement sets the running statement's snapshot aside; the
// caller must ResumeStatement before the statement goes on.
func (x *Txn) SuspendStatement() StatementState {
	st := StatementState{snap: x.snap, hasSnap: x.hasSnap, ownSnap: x.ownSnap}
	x.hasSnap, x.ownSnap = false, false
	return st
}

// ResumeStatement ends whatever nested statement left a snapshot and
// gives the outer statement its own back.
func (x *Txn) ResumeStatement(st StatementState) {
	x.EndStatement()
	x.snap, x.hasSnap, x.ownSnap = st.snap, st.hasSnap, st.ownSnap
}
