package promsource

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// spreadMin is the fewest items worth handing to other goroutines.
const spreadMin = 64

// spread calls work on the ranges of [0, n), on up to GOMAXPROCS goroutines, and returns
// once all are done. The ranges are handed out as the goroutines free up, so that uneven
// items keep them all busy; work must not depend on which range comes first.
func spread(n int, work func(lo, hi int)) {
	if n <= 0 {
		return
	}
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || n < spreadMin {
		work(0, n)
		return
	}
	chunk := max(1, n/(procs*8))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(procs, (n+chunk-1)/chunk) {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				work(lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
}
