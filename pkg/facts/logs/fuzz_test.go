package logs

import (
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzParse: Parse never panics, keeps within its bounds, and lets no control character out.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"zap.log", "klog.log", "logfmt.log"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("panic: x\n\tgoroutine 1 [running]:\nf(\n")
	f.Add(`E1231 23:59:59.999999 1 a.go:1] "Reconciler error" a={"name":"x" b="\"`)
	f.Fuzz(func(t *testing.T, in string) {
		l := Parse(strings.NewReader(in), Options{Now: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), LineBytes: 1024})
		if len(l.Failures) > MaxFailures || len(l.Panics) > MaxPanics || len(l.CacheSyncTimeouts) > MaxCaches {
			t.Fatalf("unbounded: %d failures, %d panics, %d caches", len(l.Failures), len(l.Panics), len(l.CacheSyncTimeouts))
		}
		check := func(s string) {
			if len(s) > maxName+4*maxName || strings.ContainsAny(s, "\x00\x1b\n\r") {
				t.Fatalf("unsafe text %q", s)
			}
		}
		for _, x := range l.Failures {
			check(x.Controller)
			check(x.Object)
			check(x.Error)
		}
		for _, p := range l.Panics {
			check(p.Message)
			if len(p.Frames) > MaxFrames {
				t.Fatalf("%d frames", len(p.Frames))
			}
			for _, fr := range p.Frames {
				check(fr)
			}
		}
	})
}
