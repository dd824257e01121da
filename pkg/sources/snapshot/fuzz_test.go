package snapshot

import (
	"archive/tar"
	"bytes"
	"testing"
	"time"
)

// fuzzLimits are small, so that a fuzzed archive is read fast.
var fuzzLimits = Limits{MemberBytes: 1 << 20, TotalBytes: 4 << 20, Members: 100}

// FuzzRead checks that no file makes Read panic or hang, that whatever it accepts is within
// its limits, and that a snapshot it accepts writes and reads back the same.
func FuzzRead(f *testing.F) {
	good := build(f, manifestEntry(f, SchemaVersion), entry{name: inventoryName, data: []byte("{}")},
		entry{name: resultsName, data: []byte(`[{"target":{"kind":"url","name":"u"},"samples":[{"page":"pages/000-0.prom"}]}]`)},
		entry{name: pageName(0, 0), data: []byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n")})
	f.Add(good)
	f.Add(sparseArchive(f, 4, 64<<20))
	f.Add(build(f, manifestEntry(f, 1), entry{name: "../../etc/cron.d/x", data: []byte("x")}))
	f.Add(build(f, manifestEntry(f, 1), entry{name: "pages/000-0.prom", typ: tar.TypeSymlink, link: "/etc/shadow"}))
	f.Add(build(f, manifestEntry(f, 1), entry{name: "pages/", typ: tar.TypeDir}))
	f.Add(oversized(f, 2<<20))
	f.Add(good[:len(good)/2])
	f.Add(gz(f, []byte("hello")))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, file []byte) {
		defer watchdog("Read")()
		s, err := Read(bytes.NewReader(file), fuzzLimits)
		if err != nil {
			return
		}
		total := 0
		for name, p := range s.Pages {
			if len(p) > int(fuzzLimits.MemberBytes) {
				t.Fatalf("page %s is %d bytes, over the member limit", name, len(p))
			}
			total += len(p)
		}
		if total > int(fuzzLimits.TotalBytes) {
			t.Fatalf("the pages hold %d bytes, over the total limit", total)
		}
		var buf bytes.Buffer
		if err := s.Write(&buf); err != nil {
			return // a snapshot this build would not write (a page named out of order)
		}
		again, err := Read(&buf, DefaultLimits())
		if err != nil {
			t.Fatalf("a snapshot read and written again does not read: %v", err)
		}
		if len(again.Pages) != len(s.Pages) || len(again.Results) != len(s.Results) {
			t.Fatalf("read again: %d pages, %d results; want %d, %d", len(again.Pages), len(again.Results), len(s.Pages), len(s.Results))
		}
	})
}

// watchdog panics, failing the fuzz run with the input, unless the returned stop is called
// within 20 s: what hangs on an input is found, not waited for.
func watchdog(what string) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			panic(what + " did not return within 20s")
		}
	}()
	return func() { close(done) }
}
