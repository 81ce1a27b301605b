package engine

import (
	"context"
	"sync"
)

// workerPool bounds how many statements execute at once. A session holds a
// worker only while it executes, never while it waits for the log.
type workerPool struct {
	mu      sync.Mutex
	busy    int
	limit   int
	waiters []chan struct{}
}

func newWorkerPool(n int) *workerPool {
	if n <= 0 {
		n = 64
	}
	return &workerPool{limit: n}
}

func (p *workerPool) setLimit(n int) {
	p.mu.Lock()
	if n > 0 {
		p.limit = n
	}
	for p.busy < p.limit && len(p.waiters) > 0 {
		p.busy++
		ch := p.waiters[0]
		p.waiters = p.waiters[1:]
		ch <- struct{}{}
	}
	p.mu.Unlock()
}

func (p *workerPool) busyCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy
}

func (p *workerPool) limitCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.limit
}

func (p *workerPool) acquire(ctx context.Context) error {
	p.mu.Lock()
	if p.busy < p.limit {
		p.busy++
		p.mu.Unlock()
		return nil
	}
	ch := make(chan struct{}, 1)
	p.waiters = append(p.waiters, ch)
	p.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		p.mu.Lock()
		for i, w := range p.waiters {
			if w == ch {
				p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
				p.mu.Unlock()
				return ctx.Err()
			}
		}
		p.mu.Unlock()
		// Granted while we were leaving: pass it on.
		<-ch
		p.release()
		return ctx.Err()
	}
}

func (p *workerPool) release() {
	p.mu.Lock()
	if len(p.waiters) > 0 && p.busy <= p.limit {
		ch := p.waiters[0]
		p.waiters = p.waiters[1:]
		ch <- struct{}{}
	} else {
		p.busy--
	}
	p.mu.Unlock()
}
