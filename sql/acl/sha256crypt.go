package acl

import "crypto/sha256"

// sha256Crypt is Ulrich Drepper's SHA-256 crypt ("$5$", the algorithm
// MySQL's caching_sha2_password stores): the 43-character encoded digest
// of key with salt after rounds rounds, without the "$5$salt$" prefix.
func sha256Crypt(key, salt []byte, rounds int) string {
	// MySQL keeps up to 20 salt bytes (CRYPT_SALT_LENGTH), not Drepper's 16.
	// Digest B: key, salt, key.
	b := sha256.New()
	b.Write(key)
	b.Write(salt)
	b.Write(key)
	sumB := b.Sum(nil)

	// Digest A: key, salt, B repeated over len(key), then B or key per bit
	// of len(key).
	a := sha256.New()
	a.Write(key)
	a.Write(salt)
	n := len(key)
	for ; n > 32; n -= 32 {
		a.Write(sumB)
	}
	a.Write(sumB[:n])
	for n = len(key); n > 0; n >>= 1 {
		if n&1 != 0 {
			a.Write(sumB)
		} else {
			a.Write(key)
		}
	}
	sumA := a.Sum(nil)

	// P: DP = key repeated len(key) times, cut to len(key).
	dp := sha256.New()
	for range key {
		dp.Write(key)
	}
	sumDP := dp.Sum(nil)
	p := repeatTo(sumDP, len(key))

	// S: DS = salt repeated 16+A[0] times, cut to len(salt).
	ds := sha256.New()
	for i := 0; i < 16+int(sumA[0]); i++ {
		ds.Write(salt)
	}
	sumDS := ds.Sum(nil)
	s := repeatTo(sumDS, len(salt))

	c := sumA
	for i := range rounds {
		h := sha256.New()
		if i&1 != 0 {
			h.Write(p)
		} else {
			h.Write(c)
		}
		if i%3 != 0 {
			h.Write(s)
		}
		if i%7 != 0 {
			h.Write(p)
		}
		if i&1 != 0 {
			h.Write(c)
		} else {
			h.Write(p)
		}
		c = h.Sum(c[:0])
	}
	return cryptBase64(c)
}

// repeatTo is sum repeated to n bytes.
func repeatTo(sum []byte, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, sum[:min(len(sum), n-len(out))]...)
	}
	return out
}

const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// cryptOrder is the order sha256-crypt encodes the digest's bytes in,
// three at a time (the last group is two).
var cryptOrder = [10][3]int{
	{0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14},
	{15, 25, 5}, {6, 16, 26}, {27, 7, 17}, {18, 28, 8}, {9, 19, 29},
}

// cryptBase64 is sha256-crypt's byte shuffle and base-64 encoding.
func cryptBase64(c []byte) string {
	out := make([]byte, 0, 43)
	enc := func(b2, b1, b0 byte, n int) {
		w := uint(b2)<<16 | uint(b1)<<8 | uint(b0)
		for ; n > 0; n-- {
			out = append(out, cryptAlphabet[w&0x3f])
			w >>= 6
		}
	}
	for _, g := range cryptOrder {
		enc(c[g[0]], c[g[1]], c[g[2]], 4)
	}
	enc(0, c[31], c[30], 3)
	return string(out)
}
