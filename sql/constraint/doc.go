// Package constraint enforces what a table's definition promises beyond
// its types and keys: FOREIGN KEYs as InnoDB enforces them (the child's
// check that its parent row exists, the parent's RESTRICT / NO ACTION /
// CASCADE / SET NULL on delete and update) and CHECK constraints with
// MariaDB's NULL rule (a check that is NULL passes). package exec calls
// it around every row it writes: Rules.Check (CHECKs) and
// Rules.CheckParents (the row's own foreign keys; a row may be its own
// parent, as InnoDB allows) before the write, and Rules.AfterWrite (the
// keys referencing the row: RESTRICT, CASCADE, SET NULL) after it.
//
// Locking. InnoDB takes a shared lock on the parent row a child row
// references, so that the parent cannot be deleted (or its key changed)
// until the child's transaction ends, while other children of the same
// parent proceed. plrun's lock manager has only exclusive locks, so a
// child's check takes the parent row's exclusive lock, held to the end of
// the transaction: the parent can never lose a row a committed or pending
// child references, and a parent inserted by a transaction not yet
// committed is waited for (the lock is taken before the read). The price
// is that transactions inserting children of the same parent row
// serialize on it (as InnoDB's writers of that parent row would); a
// shared mode in lockmgr would lift that. A parent referenced through a
// UNIQUE index also locks that index value, as a parent insert does.
// The parent side locks each child row it examines before reading it
// current, so a child being changed by another transaction is waited for.
//
// All of it runs inside the statement's transaction: an error rolls back
// the statement (its cascades included), as MySQL's statement rollback
// does. Cascaded rows are not counted in the statement's affected rows,
// as in MySQL, and CHECK constraints are not evaluated on them (MariaDB
// does not either). Cascades stop at InnoDB's depth of 15.
//
// foreign_key_checks=0 (Writer.FKChecks false) skips every foreign key
// check and action; CHECK constraints still hold, as in MariaDB.
package constraint
