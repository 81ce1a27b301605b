package sqlerr

// Codes of the connection's transport (TLS); SQLSTATE HY000 (StateOf's default).
const (
	// ErNoSecureTransportsConfigured is MariaDB's refusal of
	// require_secure_transport=ON on a server without TLS.
	ErNoSecureTransportsConfigured uint16 = 4167
	// ErSecureTransportRequired is MySQL's refusal of a login without TLS
	// while require_secure_transport is ON.
	ErSecureTransportRequired uint16 = 3159
)
