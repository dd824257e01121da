package goroutines

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Limits bound what Parse keeps of a dump.
type Limits struct {
	// Goroutines is the most goroutines kept; the rest are counted in Dump.Dropped.
	Goroutines int
	// Frames is the most frames kept per goroutine (innermost first).
	Frames int
	// LineBytes is the longest line read; a longer one ends the dump with an error.
	LineBytes int
}

// DefaultLimits fit a controller with tens of thousands of goroutines.
func DefaultLimits() Limits { return Limits{Goroutines: 100_000, Frames: 64, LineBytes: 64 << 10} }

// Dump is a parsed goroutine dump.
type Dump struct {
	Goroutines []Goroutine
	// Dropped counts the goroutines past Limits.Goroutines.
	Dropped int
}

// Goroutine is one goroutine of the dump.
type Goroutine struct {
	ID int
	// State is what it does or waits for: "running", "select", "chan receive",
	// "sync.Mutex.Lock", "IO wait", "semacquire", "sleep", ...
	State string
	// Waiting is how long it has been blocked, as the runtime rounds it (whole minutes; 0 under
	// a minute or when running).
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

// Parse reads a debug=2 goroutine dump. Lines it does not recognise are skipped; a goroutine
// header starts the next goroutine.
func Parse(r io.Reader, lim Limits) (*Dump, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), lim.LineBytes)
	d := &Dump{}
	var cur *Goroutine
	var pending string // a function line waiting for its file line
	flush := func() {
		if cur == nil {
			return
		}
		if pending != "" && len(cur.Frames) < lim.Frames {
			cur.Frames = append(cur.Frames, Frame{Func: pending})
		}
		pending = ""
		if len(d.Goroutines) < lim.Goroutines {
			d.Goroutines = append(d.Goroutines, *cur)
		} else {
			d.Dropped++
		}
		cur = nil
	}
	createdBy := false
	for sc.Scan() {
		line := sc.Text()
		if g, ok := header(line); ok {
			flush()
			cur, createdBy = &g, false
			continue
		}
		if cur == nil || strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "\t") {
			file, ln := fileLine(line)
			switch {
			case createdBy:
				cur.CreatedBy.File, cur.CreatedBy.Line = file, ln
			case pending != "":
				if len(cur.Frames) < lim.Frames {
					cur.Frames = append(cur.Frames, Frame{Func: pending, File: file, Line: ln})
				}
				pending = ""
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "created by "); ok {
			if pending != "" && len(cur.Frames) < lim.Frames {
				cur.Frames = append(cur.Frames, Frame{Func: pending})
			}
			pending = ""
			fn, _, _ := strings.Cut(rest, " in goroutine ")
			cur.CreatedBy, createdBy = Frame{Func: fn}, true
			continue
		}
		if strings.HasPrefix(line, "...") { // "...additional frames elided..."
			continue
		}
		if pending != "" && len(cur.Frames) < lim.Frames {
			cur.Frames = append(cur.Frames, Frame{Func: pending})
		}
		pending = funcName(line)
	}
	flush()
	if err := sc.Err(); err != nil {
		return d, fmt.Errorf("goroutine dump: %w", err)
	}
	return d, nil
}

// header parses "goroutine 42 [select, 12 minutes, locked to thread]:".
func header(line string) (Goroutine, bool) {
	rest, ok := strings.CutPrefix(line, "goroutine ")
	if !ok || !strings.HasSuffix(line, "]:") {
		return Goroutine{}, false
	}
	idText, status, ok := strings.Cut(rest, " [")
	if !ok {
		return Goroutine{}, false
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		return Goroutine{}, false
	}
	status = strings.TrimSuffix(status, "]:")
	parts := strings.Split(status, ", ")
	g := Goroutine{ID: id, State: parts[0]}
	for _, p := range parts[1:] {
		if n, unit, ok := strings.Cut(p, " "); ok && (unit == "minutes" || unit == "minute") {
			if m, err := strconv.Atoi(n); err == nil && m >= 0 {
				g.Waiting = time.Duration(m) * time.Minute
			}
		}
	}
	return g, true
}

// funcName is the function of a frame line, without its arguments: "pkg.(*T).M(0xc0, ...)"
// gives "pkg.(*T).M". Generic instantiations "[...]" are kept.
func funcName(line string) string {
	line = strings.TrimSpace(line)
	if i := strings.LastIndex(line, "("); i > 0 && strings.HasSuffix(line, ")") {
		return line[:i]
	}
	return line
}

// fileLine parses "\t/path/file.go:123 +0x1f".
func fileLine(line string) (string, int) {
	line = strings.TrimSpace(line)
	if i := strings.LastIndex(line, " +0x"); i > 0 {
		line = line[:i]
	}
	i := strings.LastIndex(line, ":")
	if i < 0 {
		return line, 0
	}
	n, err := strconv.Atoi(line[i+1:])
	if err != nil {
		return line, 0
	}
	return line[:i], n
}
