// Package startheap lets the plugin start without collecting garbage. A run of the plugin is
// short, and most of its start is package initialisation (API types registered in client-go's
// scheme, and the like) that allocates a few MiB: with the runtime's default start (the first
// collection at a heap of 4 MiB), a small run spends a collection, and its page faults, on
// that alone. Imported by the commands' main packages for its init, which runs before the
// initialisation of the Kubernetes libraries (packages are initialised in the order of their
// import paths once their imports are), it moves the first collection to a heap of Goal, and
// gives GOGC back its value once that collection is done: from there on the heap is paced as
// usual, so a large run peaks as high as before. GOGC set in the environment is left alone.
package startheap

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Goal is the heap size at which the first collection starts.
const Goal = 16 << 20

// defaultMinimum is the runtime's heap goal before the first collection at GOGC=100: it scales
// with GOGC.
const defaultMinimum = 4 << 20

func init() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	prev := debug.SetGCPercent(100 * Goal / defaultMinimum)
	// sentinel is unreachable from the start: the first collection finalises it.
	type sentinel [32]byte // not a tiny allocation, which may share a block and live on
	runtime.SetFinalizer(new(sentinel), func(*sentinel) { debug.SetGCPercent(prev) })
}
