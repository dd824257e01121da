package logs

import (
	"strings"
)

// panicked starts a panic when e is one: controller-runtime's and apimachinery's "Observed a
// panic" (its stack in the "stacktrace" field, or in the plain lines that follow), or a
// crash's "panic: ..." followed by its goroutine's stack.
func (p *parser) panicked(e entry, plain bool, raw string) bool {
	var msg, stack string
	switch {
	case strings.HasPrefix(e.msg, "Observed a panic"):
		msg = e.field("panic")
		if msg == "" {
			msg = strings.TrimLeft(e.msg[len("Observed a panic"):], " :")
			msg = strings.TrimPrefix(msg, "in reconciler: ")
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				stack, msg = msg[i+1:], msg[:i]
			}
		}
		if s := e.field("stacktrace"); s != "" {
			stack = s
		}
	case plain && strings.HasPrefix(raw, "panic: "):
		msg = strings.TrimPrefix(raw, "panic: ")
	default:
		return false
	}
	msg = strings.TrimSuffix(strings.TrimSpace(msg), " [recovered]")
	pn := &Panic{Controller: bounded(e.field("controller")), Message: clean(msg), Last: e.time}
	p.stack, p.stackLines, p.stackTime = pn, nil, e.time
	if stack != "" {
		p.stackLines = strings.SplitN(stack, "\n", maxStackLines+1)
		p.stackLines = p.stackLines[:min(len(p.stackLines), maxStackLines)]
		p.endStack()
	}
	return true
}

// endStack keeps the pending panic with the first frames of its stack.
func (p *parser) endStack() {
	pn := p.stack
	if pn == nil {
		return
	}
	p.stack = nil
	pn.Frames = firstFrames(p.stackLines)
	p.stackLines = nil
	for i := range p.log.Panics {
		if q := &p.log.Panics[i]; q.Message == pn.Message && q.Controller == pn.Controller {
			q.Count++
			if !pn.Last.Before(q.Last) {
				q.Last = pn.Last
			}
			if len(q.Frames) == 0 {
				q.Frames = pn.Frames
			}
			return
		}
	}
	if len(p.log.Panics) < MaxPanics {
		pn.Count = 1
		p.log.Panics = append(p.log.Panics, *pn)
	}
}

// firstFrames are the functions of a stack trace from where it panicked: the frames after the
// last call of panic (the recovering handlers come before it), without the runtime's, at most
// MaxFrames.
func firstFrames(lines []string) []string {
	var funcs []string
	for _, l := range lines {
		l = strings.TrimRight(l, "\r ")
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "goroutine ") ||
			strings.HasPrefix(l, "created by ") || !strings.HasSuffix(l, ")") {
			continue
		}
		fn := l
		if i := strings.LastIndex(fn, "("); i > 0 {
			fn = fn[:i]
		}
		if fn == "panic" || strings.HasSuffix(fn, ".gopanic") {
			funcs = funcs[:0]
			continue
		}
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "runtime/debug.") || strings.Contains(fn, " ") {
			continue
		}
		funcs = append(funcs, bounded(fn))
	}
	if len(funcs) > MaxFrames {
		funcs = funcs[:MaxFrames]
	}
	if len(funcs) == 0 {
		return nil
	}
	return append([]string(nil), funcs...)
}
