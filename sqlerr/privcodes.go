package sqlerr

// Privilege check errors (MariaDB 10.11's numbers and SQLSTATEs; see
// sql/access for their wording).
const (
	ErTableAccessDenied    uint16 = 1142 // ER_TABLEACCESS_DENIED_ERROR: "SELECT command denied to user ... for table"
	ErColumnAccessDenied   uint16 = 1143 // ER_COLUMNACCESS_DENIED_ERROR: "... for column 'a' in table 't'"
	ErSpecificAccessDenied uint16 = 1227 // ER_SPECIFIC_ACCESS_DENIED_ERROR: "you need (at least one of) the SUPER privilege(s)"
	ErProcAccessDenied     uint16 = 1370 // ER_PROCACCESS_DENIED_ERROR: "execute command denied ... for routine"
	ErNoSuchUser           uint16 = 1449 // ER_NO_SUCH_USER: a routine's, view's or trigger's DEFINER has no account
	ErKillDenied           uint16 = 1095 // ER_KILL_DENIED_ERROR: KILL of another account's thread
)

func init() {
	states[ErTableAccessDenied] = "42000"
	states[ErSpecificAccessDenied] = "42000"
	states[ErColumnAccessDenied] = "42000"
	states[ErProcAccessDenied] = "42000"
}
