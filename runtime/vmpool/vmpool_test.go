package vmpool

import "testing"

func TestPoolReusesAndBounds(t *testing.T) {
	made, discarded := 0, 0
	p := New(1, func() int { made++; return made }, func(int) { discarded++ })
	a := p.Get()
	b := p.Get()
	if a == b || made != 2 {
		t.Fatalf("two Gets from an empty pool gave %d and %d (%d made)", a, b, made)
	}
	p.Put(a)
	p.Put(b) // no room: discarded
	if discarded != 1 {
		t.Fatalf("%d discarded, want 1", discarded)
	}
	if c := p.Get(); c != a || made != 2 {
		t.Fatalf("Get after Put gave %d (%d made), want the idle %d", c, made, a)
	}
}
