package cmalloc

import "testing"

// With glibc the allocator takes the setting.
func TestLimit(t *testing.T) {
	ok := Limit(2)
	if Glibc() && !ok {
		t.Fatal("mallopt(M_ARENA_MAX, 2) was refused")
	}
}
