// Package types is plrun's SQL value model: the Value every layer passes
// around, the column types of CREATE TABLE, and MySQL's rules for
// comparing, converting and computing with them.
//
//   - Value is a small tagged union. DECIMAL values are exact
//     (github.com/cockroachdb/apd/v3) and are never routed through float64.
//   - Coerce stores a value into a column: strict-mode range checks (1264),
//     string lengths (1406), DECIMAL rounding to the column's scale.
//   - Arithmetic follows MySQL: integer + integer stays integer and
//     overflows with 1690; UNSIGNED - x that goes below zero is 1690;
//     anything with a DECIMAL is exact; a DOUBLE makes the result DOUBLE.
//   - Strings compare as utf8mb4_general_ci does: case-insensitively and
//     with trailing spaces ignored. KeyString encodes a value the same way,
//     so two values that compare equal have equal keys.
//   - AppendKey (key.go) is the order-preserving key of a value: bytes
//     that sort as Compare orders one column type's values, equal exactly
//     when KeyString's are, self-delimiting (SkipKey) so that a tuple's
//     keys concatenate; storage.KeyOf builds primary keys with it.
//     DecodeKey reads back what the key holds (not folded strings).
//   - Byte strings (BINARY, VARBINARY, BLOB: bytestr.go) are KindString
//     values marked PBinary and compare byte by byte; ENUM and SET values
//     (enumset.go) are KindString values that carry their index or bitmask;
//     BIT values (bit.go) are KindUint values that print as their bytes.
//     Value.P holds those marks.
//   - AppendRow/DecodeRow are the binary row codec used by the log and
//     snapshots; the marked values have tags of their own, which rows of
//     older data folders never hold.
//   - Date and time: KindTime is a DATE or DATETIME/TIMESTAMP wall time
//     (ShiftZone moves a TIMESTAMP's between zones, timestamp.go);
//     KindDuration a TIME (duration.go); a YEAR is a KindInt (year.go).
//     New kinds and Bases are only ever appended: the codec stores kinds,
//     table definitions store Bases.
//
// Values are immutable once built: a *apd.Decimal inside a Value is never
// modified after the Value escapes, so Values may be shared between
// goroutines without copying.
package types
