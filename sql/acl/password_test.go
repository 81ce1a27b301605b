package acl

import (
	"crypto/sha1"
	"testing"
)

// SHA-256 crypt as `openssl passwd -5 -salt S KEY` and glibc crypt() give it.
func TestSHA256CryptVectors(t *testing.T) {
	for _, c := range []struct {
		key, salt string
		rounds    int
		want      string
	}{
		{"Hello world!", "saltstring", 5000, "5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"},
		{"Hello world!", "saltstringsaltst", 5000, "a5C8Ofk71MUIoKve2QuP9FMl.dwNgseF5tR1LGAL7iB"},
		{"This is just a test", "toolongsaltstrin", 5000, "Un/5jzAHMgOGZ5.mWJpuVolil07guHPvOW8mGRcvxa5"},
	} {
		if got := sha256Crypt([]byte(c.key), []byte(c.salt), c.rounds); got != c.want {
			t.Errorf("sha256Crypt(%q, %q, %d) = %q, want %q", c.key, c.salt, c.rounds, got, c.want)
		}
	}
}

func TestNativeHashAndScramble(t *testing.T) {
	// MariaDB: SELECT PASSWORD('pw1') (see testdata/sql/accounts.txt).
	if got := NativeHash("pw1"); got != "*2B602296A79E0A8784ACC5C88D92E46588CCA3C3" {
		t.Fatalf("NativeHash = %s", got)
	}
	salt := []byte("01234567890123456789")
	scramble := func(pw string) []byte {
		h1 := sha1.Sum([]byte(pw))
		h2 := sha1.Sum(h1[:])
		h := sha1.New()
		h.Write(salt)
		h.Write(h2[:])
		m := h.Sum(nil)
		for i := range m {
			m[i] ^= h1[i]
		}
		return m
	}
	stored := NativeHash("pw1")
	if !checkNativeScramble(stored, salt, scramble("pw1")) {
		t.Fatal("right password refused")
	}
	if checkNativeScramble(stored, salt, scramble("pw2")) || checkNativeScramble(stored, salt, []byte{1, 2}) {
		t.Fatal("wrong password accepted")
	}
}

func TestSHA2Hash(t *testing.T) {
	stored := SHA2Hash("secret")
	if !validSHA2Hash(stored) || !checkSHA2Password(stored, "secret") || checkSHA2Password(stored, "Secret") {
		t.Fatalf("stored %q does not check as it should", stored)
	}
	if SHA2Hash("secret") == stored {
		t.Fatal("two hashes of one password share a salt")
	}
}
