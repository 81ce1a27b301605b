package txn

// Isolation is a transaction's isolation level. plrun implements the two
// levels whose reads it can give without shared locks and without letting
// a not-yet-durable version leave the engine (DESIGN.md invariant 4):
// READ UNCOMMITTED would hand out other transactions' pending writes, and
// InnoDB's SERIALIZABLE turns plain SELECTs into shared-lock reads, which
// the lock manager (exclusive locks only) does not have. The SQL layer
// refuses those two.
type Isolation uint8

const (
	// RepeatableRead (MySQL's default): every consistent read of the
	// transaction sees one snapshot, taken at its first consistent read.
	// Writes and locking reads still lock the row and read its newest
	// committed version, as InnoDB's do.
	RepeatableRead Isolation = iota
	// ReadCommitted: every statement reads its own fresh snapshot.
	ReadCommitted
)

// SetIsolation sets the transaction's level; call it before its first
// statement.
func (x *Txn) SetIsolation(l Isolation) { x.isolation = l }

// Isolation is the transaction's level.
func (x *Txn) Isolation() Isolation { return x.isolation }
