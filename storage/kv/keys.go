package kv

import "encoding/binary"

// Key prefixes.
const (
	prefixRow   = 'r'
	prefixIndex = 'i'
	prefixMeta  = 'm'
)

// RowPrefix is the prefix of every row key of the table data dataID.
func RowPrefix(dst []byte, dataID uint64) []byte {
	dst = append(dst, prefixRow)
	return binary.BigEndian.AppendUint64(dst, dataID)
}

// RowKey is the key of the row with primary-key encoding pk.
func RowKey(dst []byte, dataID uint64, pk string) []byte {
	return append(RowPrefix(dst, dataID), pk...)
}

// IndexPrefix is the prefix of every entry of secondary index idx.
func IndexPrefix(dst []byte, dataID uint64, idx int) []byte {
	dst = append(dst, prefixIndex)
	dst = binary.BigEndian.AppendUint64(dst, dataID)
	return binary.BigEndian.AppendUint16(dst, uint16(idx))
}

// dataPrefix is the prefix of everything stored for dataID under kind.
func dataPrefix(kind byte, dataID uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{kind}, dataID)
}

// PrefixEnd is the smallest key greater than every key starting with p
// (nil: no upper bound).
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// Metadata keys.
var (
	keyApplied = []byte("m\x00applied")
	keyFormat  = []byte("m\x00format")
	keyCatalog = []byte("m\x00catalog")
)

func metaKey(name string, dataID uint64) []byte {
	k := append([]byte("m\x01"), name...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, dataID)
}
