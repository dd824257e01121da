package access

import (
	"context"
	"sync"
)

// parallelReviews bounds the reviews Each asks at once.
const parallelReviews = 8

// Each asks allowed about each of names (namespaces, mostly), a few at a time, and returns
// those it allowed, in the order given. The first error, in that order, stops it: failed is
// the name it came with.
func Each(ctx context.Context, names []string, allowed func(ctx context.Context, name string) (bool, error)) (ok []string, failed string, err error) {
	yes := make([]bool, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallelReviews)
	for i, name := range names {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			yes[i], errs[i] = allowed(ctx, name)
		}()
	}
	wg.Wait()
	for i, name := range names {
		if errs[i] != nil {
			return nil, name, errs[i]
		}
		if yes[i] {
			ok = append(ok, name)
		}
	}
	return ok, "", nil
}
