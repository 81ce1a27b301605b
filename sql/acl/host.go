package acl

import (
	"net"
	"strings"
)

// hostMatches reports whether a client at host (an IP address, as the
// server sees it, or "localhost") matches an account's host pattern:
// % and _ as LIKE (case-insensitive, as host names are), or an IPv4
// "address/netmask". A loopback client also matches "localhost", as
// MySQL resolves 127.0.0.1 and ::1 to it.
func hostMatches(pattern, host string) bool {
	if pattern == "" || pattern == "%" {
		return true
	}
	if addr, mask, ok := strings.Cut(pattern, "/"); ok {
		return maskMatches(addr, mask, host)
	}
	if strings.EqualFold(pattern, "localhost") && isLoopback(host) {
		return true
	}
	return likeFold(pattern, host)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// maskMatches is MySQL's 'a.b.c.d/m.m.m.m' host form.
func maskMatches(addr, mask, host string) bool {
	a, m, h := net.ParseIP(addr).To4(), net.ParseIP(mask).To4(), net.ParseIP(host).To4()
	if a == nil || m == nil || h == nil {
		return false
	}
	for i := range 4 {
		if h[i]&m[i] != a[i] {
			return false
		}
	}
	return true
}

// likeFold is SQL LIKE without escapes, ASCII case-insensitive.
func likeFold(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	switch pattern[0] {
	case '%':
		for i := 0; i <= len(s); i++ {
			if likeFold(pattern[1:], s[i:]) {
				return true
			}
		}
		return false
	case '_':
		return s != "" && likeFold(pattern[1:], s[1:])
	}
	return s != "" && lower(pattern[0]) == lower(s[0]) && likeFold(pattern[1:], s[1:])
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// hostRank orders host patterns most specific first, as MySQL sorts its
// user table: a host without wildcards (or an address/netmask) first,
// then patterns by how many characters precede their first wildcard,
// and '%' (or ”) last.
func hostRank(pattern string) int {
	i := strings.IndexAny(pattern, "%_")
	if i < 0 {
		return 1 << 20
	}
	return i
}
