package goroutines

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"unsafe"
)

// Parse reads a debug=2 goroutine dump and keeps every goroutine, within lim. Lines it does not
// recognise are skipped; a goroutine header starts the next goroutine.
func Parse(r io.Reader, lim Limits) (*Dump, error) {
	return parse(r, lim, nil)
}

// ParseWorkers reads a dump as Parse does, and keeps only the goroutines that run a workqueue
// item (Workers groups those). The others are counted in Total, never held: the memory it
// takes is that of the workers kept and of one goroutine's names, whatever the dump's size.
func ParseWorkers(r io.Reader, lim Limits) (*Dump, error) {
	return parse(r, lim, isWorker)
}

func parse(r io.Reader, lim Limits, keep func(Goroutine) bool) (*Dump, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), lim.LineBytes)
	p := &parser{lim: lim, keep: keep, d: &Dump{}}
	for sc.Scan() {
		p.line(sc.Bytes())
	}
	p.flush()
	if err := sc.Err(); err != nil {
		return p.d, fmt.Errorf("goroutine dump: %w", err)
	}
	return p.d, nil
}

// span is where a name lies in parser.names.
type span struct{ start, end int }

// rawFrame is a frame of the goroutine being read, its names in parser.names.
type rawFrame struct {
	fn, file span
	line     int
}

// parser reads a dump line by line. The goroutine being read is kept as its header and the
// names of its frames, back to back in one buffer reused for the next goroutine; it becomes a
// Goroutine only when it is kept.
type parser struct {
	lim  Limits
	keep func(Goroutine) bool
	d    *Dump
	kept int // the bytes the kept goroutines take

	open       bool // a goroutine is being read
	g          Goroutine
	names      []byte
	frames     []rawFrame
	pending    *span // a function line waiting for its file line
	fn         span
	created    rawFrame
	hasCreated bool // a "created by" line was read
	inCreated  bool // the last function line was "created by"
}

// line reads one line of the dump.
func (p *parser) line(line []byte) {
	if isHeader(line) {
		if g, ok := header(string(line)); ok {
			p.flush()
			p.open, p.g = true, g
			return
		}
	}
	if !p.open || len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if line[0] == '\t' {
		file, n := fileLine(line)
		switch {
		case p.inCreated:
			p.created.file, p.created.line = p.name(file), n
			p.inCreated = false
		case p.pending != nil:
			p.frame(rawFrame{fn: *p.pending, file: p.name(file), line: n})
			p.pending = nil
		}
		return
	}
	if rest, ok := bytes.CutPrefix(line, createdBy); ok {
		p.endFrame()
		if !p.hasCreated { // a dump has one; more would only grow the names
			fn, _, _ := bytes.Cut(rest, inGoroutine)
			p.created, p.hasCreated, p.inCreated = rawFrame{fn: p.name(fn)}, true, true
		}
		return
	}
	if bytes.HasPrefix(line, elided) {
		return
	}
	p.endFrame()
	p.inCreated = false
	if len(p.frames) < p.lim.Frames {
		p.fn = p.name(funcName(line))
		p.pending = &p.fn
	}
}

// name keeps b among the goroutine's names.
func (p *parser) name(b []byte) span {
	start := len(p.names)
	p.names = append(p.names, b...)
	return span{start, len(p.names)}
}

// endFrame keeps a function line that had no file line as a frame of its own.
func (p *parser) endFrame() {
	if p.pending != nil {
		p.frame(rawFrame{fn: *p.pending})
		p.pending = nil
	}
}

func (p *parser) frame(f rawFrame) {
	if len(p.frames) < p.lim.Frames {
		p.frames = append(p.frames, f)
	}
}

// sizes of what a kept goroutine takes besides its names.
var (
	goroutineSize = int(unsafe.Sizeof(Goroutine{}))
	frameSize     = int(unsafe.Sizeof(Frame{}))
)

// flush ends the goroutine being read: kept when it may be, counted in any case.
func (p *parser) flush() {
	if !p.open {
		return
	}
	p.endFrame()
	p.d.Total++
	if p.keep == nil || p.mayKeep() {
		p.add()
	}
	p.open, p.g, p.names, p.frames = false, Goroutine{}, p.names[:0], p.frames[:0]
	p.created, p.hasCreated, p.inCreated = rawFrame{}, false, false
}

// mayKeep says whether the goroutine being read may be a worker, from its names alone: no
// worker mark among them, and it is none.
func (p *parser) mayKeep() bool {
	for _, m := range workerMarks {
		if bytes.Contains(p.names, []byte(m)) {
			return true
		}
	}
	return false
}

// add makes the goroutine being read a Goroutine, and keeps it when keep takes it and the
// limits leave room for it.
func (p *parser) add() {
	names := string(p.names)
	at := func(s span) string { return names[s.start:s.end] }
	g := p.g
	g.Frames = make([]Frame, len(p.frames))
	for i, f := range p.frames {
		g.Frames[i] = Frame{Func: at(f.fn), File: at(f.file), Line: f.line}
	}
	g.CreatedBy = Frame{Func: at(p.created.fn), File: at(p.created.file), Line: p.created.line}
	if p.keep != nil && !p.keep(g) {
		return
	}
	size := goroutineSize + len(g.State) + len(names) + len(g.Frames)*frameSize
	if len(p.d.Goroutines) >= p.lim.Goroutines || p.kept+size > p.lim.KeptBytes {
		p.d.Dropped++
		return
	}
	p.kept += size
	p.d.Goroutines = append(p.d.Goroutines, g)
}
