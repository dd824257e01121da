// Package crilog writes a process's output in the CRI log format, the file a kubelet keeps
// for each container and serves to `kubectl logs`: one record a line,
// "2026-11-26T12:00:00.123456789Z stdout F message" (the time in UTC with nanoseconds, the
// stream, F for a full line or P for a part of a line longer than MaxLine). The local
// cluster's fake kubelet (kwok's Logs) reads such files for the pods that local processes
// stand behind.
package crilog

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// MaxLine is the longest line written as one record: longer lines are cut into partial
// records (P), as the kubelet's runtime does at 16 KiB.
const MaxLine = 16 << 10

// File writes the records of a process's streams to one writer.
type File struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// New returns a File that writes records to w, each stamped with the time it was written.
func New(w io.Writer) *File { return &File{w: w, now: time.Now} }

// Stream returns the writer of one stream ("stdout" or "stderr"). It keeps a line until its
// newline, so that each line becomes one record; call Flush for a last line without one.
func (f *File) Stream(name string) *Stream { return &Stream{f: f, name: name} }

// Stream is one stream of the process.
type Stream struct {
	f    *File
	name string
	mu   sync.Mutex
	buf  []byte
}

// Write writes a record for each complete line of p and keeps the rest. It never fails: a
// record the underlying writer refuses is lost, the process's output is not.
func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		switch {
		case i >= 0 && i <= MaxLine:
			s.f.record(s.name, "F", s.buf[:i])
			s.buf = s.buf[i+1:]
		case len(s.buf) > MaxLine:
			s.f.record(s.name, "P", s.buf[:MaxLine])
			s.buf = s.buf[MaxLine:]
		default:
			s.buf = append([]byte(nil), s.buf...) // let the written lines go
			return len(p), nil
		}
	}
}

// Flush writes the line kept without its newline, if any.
func (s *Stream) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.buf) > 0 {
		s.f.record(s.name, "F", s.buf)
		s.buf = nil
	}
}

func (f *File) record(stream, tag string, line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := make([]byte, 0, len(line)+64)
	rec = f.now().UTC().AppendFormat(rec, time.RFC3339Nano)
	rec = append(rec, ' ')
	rec = append(rec, stream...)
	rec = append(rec, ' ')
	rec = append(rec, tag...)
	rec = append(rec, ' ')
	rec = append(rec, line...)
	rec = append(rec, '\n')
	_, _ = f.w.Write(rec)
}
