package crilog

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRecords(t *testing.T) {
	var out bytes.Buffer
	f := New(&out)
	f.now = func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 123456789, time.FixedZone("x", 3600)) }
	so, se := f.Stream("stdout"), f.Stream("stderr")
	so.Write([]byte("one\ntw"))
	se.Write([]byte("err line\r\n"))
	so.Write([]byte("o\n\nlast"))
	so.Flush()
	so.Flush()
	want := "2026-11-26T11:00:00.123456789Z stdout F one\n" +
		"2026-11-26T11:00:00.123456789Z stderr F err line\n" +
		"2026-11-26T11:00:00.123456789Z stdout F two\n" +
		"2026-11-26T11:00:00.123456789Z stdout F \n" +
		"2026-11-26T11:00:00.123456789Z stdout F last\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestLongLineIsCutIntoPartialRecords(t *testing.T) {
	var out bytes.Buffer
	s := New(&out).Stream("stdout")
	s.Write([]byte(strings.Repeat("a", MaxLine+10) + "\n"))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], " stdout P ") || !strings.HasSuffix(lines[1], " stdout F "+strings.Repeat("a", 10)) {
		t.Errorf("got %d records: %.80q ... %.80q", len(lines), lines[0], lines[len(lines)-1])
	}
	if n := len(strings.SplitN(lines[0], " ", 4)[3]); n != MaxLine {
		t.Errorf("the partial record holds %d bytes, want %d", n, MaxLine)
	}
}
