package sqlerr

// Codes of SET refusals MariaDB gives beside 1231/1238 (SQLSTATE HY000,
// StateOf's default).
const (
	// ErUnknownTimeZone: SET time_zone to a zone plrun has no rules for.
	ErUnknownTimeZone uint16 = 1298
	// ErQueryCacheGloballyDisabled: SET SESSION query_cache_type = ON
	// while the server has no query cache.
	ErQueryCacheGloballyDisabled uint16 = 1925
	// ErQueryCacheDisabled: SET GLOBAL query_cache_type = ON on a server
	// started without a query cache.
	ErQueryCacheDisabled uint16 = 1651
	// ErSessionReadOnly: SET SESSION of a variable only SET GLOBAL may
	// change (net_buffer_length).
	ErSessionReadOnly uint16 = 1621
)

// ErCollationCharsetMismatch: SET NAMES cs COLLATE co with a collation of
// another charset (SQLSTATE 42000).
const ErCollationCharsetMismatch uint16 = 1253

// ErUpdateWithoutKeyInSafeMode: sql_safe_updates refused an UPDATE or
// DELETE that finds its rows without a key and has no LIMIT.
const ErUpdateWithoutKeyInSafeMode uint16 = 1175
