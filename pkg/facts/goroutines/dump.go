package goroutines

import "time"

// Limits bound what Parse keeps of a dump.
type Limits struct {
	// Goroutines is the most goroutines kept; the rest are counted in Dump.Dropped.
	Goroutines int
	// Frames is the most frames kept per goroutine (innermost first).
	Frames int
	// LineBytes is the longest line read; a longer one ends the dump with an error.
	LineBytes int
	// KeptBytes is the most memory the goroutines kept may take (their names, frames and
	// headers); the goroutines past it are counted in Dump.Dropped.
	KeptBytes int
}

// DefaultLimits fit a controller with tens of thousands of goroutines. The kept goroutines are
// those ParseWorkers keeps, a controller's workers: a few hundred at most, some kilobytes each.
func DefaultLimits() Limits {
	return Limits{Goroutines: 100_000, Frames: 64, LineBytes: 64 << 10, KeptBytes: 16 << 20}
}

// Dump is a parsed goroutine dump.
type Dump struct {
	// Goroutines are the goroutines kept, in the dump's order.
	Goroutines []Goroutine
	// Total counts the goroutines of the dump, kept or not.
	Total int
	// Dropped counts the goroutines that would have been kept but were past Limits.Goroutines
	// or Limits.KeptBytes.
	Dropped int
}

// Goroutine is one goroutine of the dump.
type Goroutine struct {
	ID int
	// State is what it does or waits for: "running", "select", "chan receive",
	// "sync.Mutex.Lock", "IO wait", "semacquire", "sleep", ...
	State string
	// Waiting is how long it has been blocked, as the runtime rounds it (whole minutes; 0 under
	// a minute or when running; at most maxWaiting).
	Waiting time.Duration
	// Frames are its calls, innermost first.
	Frames []Frame
	// CreatedBy is the call that started it ("" Func when unknown).
	CreatedBy Frame
}

// Frame is one call of a stack.
type Frame struct {
	// Func is the function's full name ("net/http.(*Client).Do",
	// "main.(*annotator).callBackend").
	Func string `json:"func"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}
