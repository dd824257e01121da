package cmd

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestLine(t *testing.T) {
	// Not a terminal: nothing at all, however long the work.
	var quiet buffer
	l := StartProgress(&quiet, "Reading 3 targets", 3)
	l.Step()
	l.Stop()
	if quiet.String() != "" {
		t.Errorf("wrote %q to a non-terminal", quiet.String())
	}

	// Work shorter than the delay: nothing.
	var short buffer
	l = start(&short, "Reading 3 targets", 3, true, time.Hour, time.Millisecond)
	l.Stop()
	if short.String() != "" {
		t.Errorf("wrote %q for short work", short.String())
	}

	// Longer: the line counts the steps and is erased at the end.
	var long buffer
	l = start(&long, "Reading 3 targets", 3, true, time.Millisecond, time.Millisecond)
	l.Step()
	time.Sleep(50 * time.Millisecond)
	l.Stop()
	l.Stop()
	out := long.String()
	if !strings.Contains(out, "\r\033[KReading 3 targets... 1/3 done") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("line: %q", out)
	}
}
