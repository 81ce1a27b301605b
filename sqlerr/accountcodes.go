package sqlerr

// The errors of the account statements (sql/acl), as MariaDB 10.11
// numbers them.
const (
	ErPasswordNoMatch       uint16 = 1133 // no such account (SET PASSWORD, GRANT TO, SHOW CREATE USER)
	ErNonexistingGrant      uint16 = 1141 // REVOKE / SHOW GRANTS of what is not granted
	ErIllegalGrantForTable  uint16 = 1144 // a privilege the level cannot hold
	ErNonexistingTableGrant uint16 = 1147 // REVOKE on a table without a grant
	ErRevokeGrants          uint16 = 1269 // REVOKE ALL ... FROM a missing account
	ErNonexistingProcGrant  uint16 = 1403 // REVOKE on a routine without a grant
	ErPasswdLength          uint16 = 1372 // SET PASSWORD = 'not a hash'
	ErCannotUser            uint16 = 1396 // CREATE/DROP/ALTER/RENAME USER of a missing or existing account
	ErWrongStringLength     uint16 = 1470 // a user or host name too long
	ErPluginIsNotLoaded     uint16 = 1524 // IDENTIFIED WITH an unknown plugin
	ErPasswordFormat        uint16 = 1827 // IDENTIFIED WITH caching_sha2_password AS a malformed hash
	ErUserCreateExists      uint16 = 1973 // CREATE USER IF NOT EXISTS of an existing account (a Note)
	ErUserDropExists        uint16 = 1974 // DROP USER IF EXISTS of a missing account (a Note)
)

func init() {
	states[ErPasswordNoMatch] = "28000"
	states[ErNonexistingGrant] = "42000"
	states[ErIllegalGrantForTable] = "42000"
	states[ErNonexistingTableGrant] = "42000"
	states[ErNonexistingProcGrant] = "42000"
	states[ErPluginIsNotLoaded] = "HY000"
}
