package sqlerr

// Constraint errors (issue 12: FOREIGN KEY, CHECK, temporary tables),
// kept apart from the main table so it can grow without touching it.
const (
	ErCantCreateTable     uint16 = 1005 // CREATE TABLE with a foreign key InnoDB refuses (errno 150)
	ErRowIsReferenced2    uint16 = 1451 // deleting or updating a parent row a child references
	ErNoReferencedRow2    uint16 = 1452 // a child row whose parent is missing
	ErTruncateIllegalFK   uint16 = 1701 // TRUNCATE of a referenced parent
	ErDupConstraintName   uint16 = 1826 // two CHECK constraints of one name
	ErConstraintFailed    uint16 = 4025 // a CHECK constraint is false for a row
	ErForeignDuplicateKey uint16 = 1761 // a cascaded update would duplicate a child's key
	ErGetErrmsg           uint16 = 1296 // "Got error 193 ... from InnoDB": a cascade deeper than 15 levels
	ErFKIncorrectlyFormed        = "Foreign key constraint is incorrectly formed"
)

func init() {
	states[ErForeignDuplicateKey] = "23000"
	states[ErRowIsReferenced2] = "23000"
	states[ErNoReferencedRow2] = "23000"
	states[ErTruncateIllegalFK] = "42000"
	states[ErConstraintFailed] = "23000"
}

// CHECK expressions MariaDB refuses.
const (
	ErCheckNotAllowed uint16 = 1901 // a non-deterministic function or a variable
	ErCheckSubquery   uint16 = 1970 // a subquery or a stored function
)

func init() { states[ErCheckSubquery] = "42000" }

// Schema changes a constraint refuses (HY000).
const (
	ErDropIndexFK          uint16 = 1553 // dropping the index (or column) a foreign key needs
	ErFKColumnCannotDropCh uint16 = 1829 // dropping a column a child's foreign key references
	ErFKColumnCannotChange uint16 = 1832 // changing the type of a foreign key's column
	ErFKColumnCannotChgCh  uint16 = 1833 // changing the type of a column a child references
	ErAlterOperationNotSup uint16 = 1845 // ALGORITHM= / LOCK= an operation cannot have, no reason given (ADD CHECK)
)

func init() { states[ErAlterOperationNotSup] = "0A000" }
