package parse

import (
	"bufio"
	"sync"
)

// Selector decides which lines of a page are kept, for many pages at once: it remembers its
// decision for every metric name, so that a command reading hundreds of targets decides
// once per name rather than once per name and page. It is safe for concurrent use.
type Selector struct {
	keep Keep
	// reduce are the families read reduced, and reducedNames the family of each sample name
	// of theirs (the family's own, _bucket, _sum and _count).
	reduce       map[string]Reduce
	reducedNames map[string]string

	mu       sync.RWMutex
	samples  map[string]bool // by the name on a sample line (with _bucket, _sum, ...)
	comments map[string]bool // by the name on a HELP or TYPE line
}

// NewSelector returns a Selector for keep; nil keeps everything.
func NewSelector(keep Keep) *Selector {
	if keep == nil {
		return nil
	}
	return &Selector{keep: keep, samples: map[string]bool{}, comments: map[string]bool{}}
}

// NewReducingSelector returns a Selector for keep that reads the histogram families in
// reduce reduced (see Reduce); a family keep rejects is not read at all.
func NewReducingSelector(keep Keep, reduce map[string]Reduce) *Selector {
	s := NewSelector(keep)
	if s == nil || len(reduce) == 0 {
		return s
	}
	s.reduce, s.reducedNames = map[string]Reduce{}, map[string]string{}
	for family, r := range reduce {
		if !keep(family) || keep(family+"_bucket") || keep(family+"_sum") || keep(family+"_count") {
			continue // a family of one of its sample names would take their lines
		}
		s.reduce[family] = r
		for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
			s.reducedNames[family+suffix] = family
		}
	}
	return s
}

// maxDecisions bounds the decisions remembered, for pages with very many distinct names.
const maxDecisions = 8192

// sample reports whether the sample lines of metric name are kept: the name is a family's,
// or one of the suffixed names of a histogram or summary.
func (s *Selector) sample(name []byte) bool {
	return s.decide(s.samples, name, func(n string) bool { return s.keep(n) || s.keep(familyOf(n)) })
}

// comment reports whether the HELP and TYPE lines of family name are kept.
func (s *Selector) comment(name []byte) bool {
	return s.decide(s.comments, name, s.keep)
}

func (s *Selector) decide(m map[string]bool, name []byte, keep Keep) bool {
	s.mu.RLock()
	d, ok := m[string(name)] // no allocation for the lookup
	s.mu.RUnlock()
	if ok {
		return d
	}
	n := string(name)
	d = keep(n)
	s.mu.Lock()
	if len(m) < maxDecisions {
		m[n] = d
	}
	s.mu.Unlock()
	return d
}

// readers recycles the filter's 64 KiB read buffers between pages.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// keptBuffers recycles the buffers that hold a page's kept lines; maxPooledKept keeps the one
// of an unusually large page from being held for the rest of the command.
var keptBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256<<10); return &b }}

const maxPooledKept = 4 << 20
