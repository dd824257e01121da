package logs

import (
	"bufio"
	"errors"
	"io"
	"sort"
	"strings"
	"time"
)

// Options say what Parse counts.
type Options struct {
	// Since drops the lines older than it (those with a time); From starts the window judged:
	// throttling waits, panics, leader-election losses and cache sync timeouts older than it
	// are not counted. Failures are counted from Since.
	Since, From time.Time
	// Now gives klog's headers their year; zero: time.Now.
	Now time.Time
	// LineBytes is the longest line read whole; the rest of a longer one is skipped.
	LineBytes int
}

// maxKeys bounds the failure groups Parse holds while reading; maxStackLines the lines of a
// stack trace read after a panic.
const (
	maxKeys       = 1000
	maxStackLines = 200
	maxName       = 253
)

// Parse reads a log and extracts its facts. It never fails: a line it does not know is skipped;
// a read error ends the log where it happened.
func Parse(r io.Reader, o Options) *Log {
	if o.LineBytes <= 0 {
		o.LineBytes = 64 << 10
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	p := &parser{o: o, log: &Log{Since: o.Since, From: o.From}, failures: map[string]*Failure{}}
	br := bufio.NewReaderSize(r, 4096)
	var partial strings.Builder
	for {
		line, n, err := readLine(br, o.LineBytes)
		p.log.Bytes += int64(n)
		if n > 0 {
			p.log.Lines++
			ts, rest, more := prefixTime(line)
			if more || partial.Len() > 0 {
				if partial.Len()+len(rest) <= o.LineBytes {
					partial.WriteString(rest)
				}
				if more {
					if err != nil {
						break
					}
					continue
				}
				rest = partial.String()
				partial.Reset()
			}
			p.line(ts, rest)
		}
		if err != nil {
			break
		}
	}
	p.endStack()
	p.finish()
	return p.log
}

// readLine reads one line without its end, at most limit bytes of it; n counts all its bytes.
func readLine(br *bufio.Reader, limit int) (string, int, error) {
	var b []byte
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if room := limit - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		s := strings.TrimRight(string(b), "\r\n")
		return s, n, err
	}
}

// parser holds what Parse has seen so far.
type parser struct {
	o        Options
	log      *Log
	failures map[string]*Failure
	// stack is the panic whose stack trace the plain lines that follow continue.
	stack      *Panic
	stackLines []string
	stackTime  time.Time
}

// line reads one line's content; ts is the kubelet's or the CRI's time of it.
func (p *parser) line(ts time.Time, s string) {
	ref := ts
	if ref.IsZero() {
		ref = p.o.Now
	}
	e := decode(s, ref)
	if !ts.IsZero() {
		e.time = ts
	}
	plain := !e.structured && !klogHeader().MatchString(s)
	if p.stack != nil {
		if plain && !strings.HasPrefix(s, "panic: ") && len(p.stackLines) < maxStackLines {
			p.stackLines = append(p.stackLines, s)
			return
		}
		if plain && strings.HasPrefix(s, "panic: ") && len(p.stackLines) == 0 {
			return // the crash that follows controller-runtime's "Observed a panic in reconciler"
		}
		p.endStack()
	}
	if !e.time.IsZero() && !p.o.Since.IsZero() && e.time.Before(p.o.Since) {
		return
	}
	inWindow := e.time.IsZero() || p.o.From.IsZero() || !e.time.Before(p.o.From)
	switch {
	case isFailure(e):
		p.failure(e)
	case !inWindow:
	case p.throttle(e):
	case p.panicked(e, plain, s):
	case leaderLost(e):
		if p.log.LeaderLost == nil {
			p.log.LeaderLost = &Occurrence{}
		}
		note(p.log.LeaderLost, e, message(e))
	case cacheTimeout(e):
		p.cacheTimeout(e)
	}
}

// isFailure says whether e is a reconcile's error: controller-runtime's "Reconciler error", a
// client-go worker's "Error syncing" with the item's key, or kube-controller-manager's "sync
// failed" Unhandled Error (kcm.go).
func isFailure(e entry) bool {
	if e.msg == "Reconciler error" {
		return true
	}
	if _, _, ok := unhandledSync(e); ok {
		return true
	}
	return e.structured && (strings.HasPrefix(e.msg, "Error syncing") || strings.HasPrefix(e.msg, "error syncing")) && e.field("key") != ""
}

// failure counts a failing object's line in its group.
func (p *parser) failure(e entry) {
	obj := e.field("object", "key")
	if name := e.field("name"); name != "" {
		obj = name
		if ns := e.field("namespace"); ns != "" {
			obj = ns + "/" + name
		}
	} else if kind := e.field("controllerKind"); kind != "" && e.field(kind) != "" {
		obj = e.field(kind)
	}
	controller, msg := e.field("controller"), e.field("error", "err")
	if controller == "" {
		controller = loggerController(e.field("logger"))
	}
	if key, err, ok := unhandledSync(e); ok {
		obj, msg = key, err
		if controller == "" {
			controller = sourceController(e.source)
		}
	}
	f := Failure{Controller: bounded(controller), Object: bounded(obj), Error: clean(msg), Last: e.time}
	// One group per object: its errors often differ only in a generated name ("pods
	// \"web-x7k2\" is forbidden: exceeded quota"), and the newest says what fails now.
	key := f.Controller + "\x00" + f.Object
	if f.Object == "" {
		key += "\x00" + f.Error
	}
	g := p.failures[key]
	if g == nil {
		if len(p.failures) >= maxKeys {
			p.log.Dropped++
			return
		}
		g = &f
		p.failures[key] = g
	}
	g.Count++
	if !e.time.Before(g.Last) {
		g.Last, g.Error = e.time, f.Error
	}
}

// finish orders and bounds what was kept.
func (p *parser) finish() {
	for _, f := range p.failures {
		p.log.Failures = append(p.log.Failures, *f)
	}
	sort.Slice(p.log.Failures, func(i, j int) bool {
		a, b := p.log.Failures[i], p.log.Failures[j]
		if !a.Last.Equal(b.Last) {
			return a.Last.After(b.Last)
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Controller+a.Object+a.Error < b.Controller+b.Object+b.Error
	})
	if n := len(p.log.Failures); n > MaxFailures {
		p.log.Dropped += n - MaxFailures
		p.log.Failures = p.log.Failures[:MaxFailures]
	}
}

// leaderLost says whether e says the process lost its lease.
func leaderLost(e entry) bool {
	t := strings.ToLower(e.msg + " " + e.field("error", "err"))
	return strings.Contains(t, "leader election lost") || strings.Contains(t, "leaderelection lost") ||
		strings.Contains(t, "failed to renew lease") || strings.Contains(t, "stopped leading")
}

// cacheTimeout says whether e says a cache did not sync in time.
func cacheTimeout(e entry) bool {
	t := strings.ToLower(e.msg + " " + e.field("error", "err"))
	return strings.Contains(t, "timed out waiting for cache") || strings.Contains(t, "could not wait for cache to sync") ||
		strings.Contains(t, "unable to sync caches") || strings.Contains(t, "failed to wait for") && strings.Contains(t, "caches to sync")
}

// cacheTimeout counts a cache sync timeout under its controller.
func (p *parser) cacheTimeout(e entry) {
	c := bounded(e.field("controller"))
	if c == "" {
		if _, after, ok := strings.Cut(e.msg+" "+e.field("error", "err"), "failed to wait for "); ok {
			if name, _, ok := strings.Cut(after, " caches to sync"); ok && !strings.Contains(name, " ") {
				c = bounded(name)
			}
		}
	}
	for i := range p.log.CacheSyncTimeouts {
		if o := &p.log.CacheSyncTimeouts[i]; o.Controller == c {
			note(o, e, message(e))
			return
		}
	}
	if len(p.log.CacheSyncTimeouts) < MaxCaches {
		o := Occurrence{Controller: c}
		note(&o, e, message(e))
		p.log.CacheSyncTimeouts = append(p.log.CacheSyncTimeouts, o)
	}
}

// note counts e in o, keeping the newest message.
func note(o *Occurrence, e entry, msg string) {
	o.Count++
	if o.Last.IsZero() || !e.time.Before(o.Last) {
		o.Last, o.Message = e.time, msg
	}
}

// message is e's message and error, cleaned.
func message(e entry) string {
	m := e.msg
	if err := e.field("error", "err"); err != "" {
		m += ": " + err
	}
	return clean(m)
}
