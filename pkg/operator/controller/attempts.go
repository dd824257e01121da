package controller

import "sync"

// attempts counts consecutive failed reconciles per object, so that the deterministic
// failure choice differs between retries of the same generation.
type attempts struct {
	mu sync.Mutex
	n  map[string]int
}

// next returns the number of the attempt about to run for key (0 for the first).
func (a *attempts) next(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	n := a.n[key]
	a.n[key] = n + 1
	return n
}

// reset forgets key after a successful reconcile or a deletion.
func (a *attempts) reset(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.n, key)
}
