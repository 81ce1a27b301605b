package vmpool

import "runtime"

// Pool holds idle VMs of type V.
type Pool[V any] struct {
	idle    chan V
	newVM   func() V
	discard func(V)
}

// New returns a pool keeping at most size idle VMs (0: 2*GOMAXPROCS).
// newVM makes a VM when none is idle; discard frees one the pool has no
// room for.
func New[V any](size int, newVM func() V, discard func(V)) *Pool[V] {
	if size <= 0 {
		size = 2 * runtime.GOMAXPROCS(0)
	}
	return &Pool[V]{idle: make(chan V, size), newVM: newVM, discard: discard}
}

// Get returns an idle VM, or a new one.
func (p *Pool[V]) Get() V {
	select {
	case v := <-p.idle:
		return v
	default:
		return p.newVM()
	}
}

// Put gives v back for reuse, or discards it if the pool is full.
func (p *Pool[V]) Put(v V) {
	select {
	case p.idle <- v:
	default:
		p.discard(v)
	}
}
