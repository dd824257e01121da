package goroutines

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func readDump(t *testing.T, name string, lim Limits) *Dump {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f, lim)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParse(t *testing.T) {
	d := readDump(t, "operator.txt", DefaultLimits())
	if len(d.Goroutines) != 6 || d.Dropped != 0 {
		t.Fatalf("%d goroutines (%d dropped), want 6", len(d.Goroutines), d.Dropped)
	}
	g := d.Goroutines[1]
	if g.ID != 210 || g.State != "select" || g.Waiting != 3*time.Minute || len(g.Frames) != 12 {
		t.Fatalf("goroutine 210: id %d state %q waiting %s, %d frames", g.ID, g.State, g.Waiting, len(g.Frames))
	}
	if f := g.Frames[5]; f.Func != "net/http.(*Client).Do" || f.File != "/usr/local/go/src/net/http/client.go" || f.Line != 587 {
		t.Errorf("frame 5: %+v", f)
	}
	if f := g.Frames[6]; f.Func != "example.com/annotator/internal/controller.(*annotator).callBackend" || f.Line != 42 {
		t.Errorf("frame 6: %+v", f)
	}
	if g.CreatedBy.Func != "sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start.func2" || g.CreatedBy.Line != 265 {
		t.Errorf("created by %+v", g.CreatedBy)
	}
	if m := d.Goroutines[2+1]; m.ID != 212 || m.State != "sync.Mutex.Lock" || m.Waiting != time.Minute {
		t.Errorf("goroutine 212: %+v", m)
	}
	if io := d.Goroutines[5]; io.State != "IO wait" || io.Waiting != 0 {
		t.Errorf("goroutine 99: %+v", io)
	}
}

func TestParseBounds(t *testing.T) {
	d := readDump(t, "operator.txt", Limits{Goroutines: 2, Frames: 3, LineBytes: 4096, KeptBytes: 1 << 20})
	if len(d.Goroutines) != 2 || d.Dropped != 4 || len(d.Goroutines[1].Frames) != 3 {
		t.Errorf("%d goroutines, %d dropped, %d frames", len(d.Goroutines), d.Dropped, len(d.Goroutines[1].Frames))
	}
	long := "goroutine 1 [running]:\n" + strings.Repeat("x", 5000) + "\n"
	if _, err := Parse(strings.NewReader(long), Limits{Goroutines: 10, Frames: 10, LineBytes: 1024, KeptBytes: 1 << 20}); err == nil {
		t.Error("a line past LineBytes was read")
	}
	// Not a dump at all: nothing, no error.
	d, err := Parse(strings.NewReader("<html>\x1b[31mnot a dump</html>\ngoroutine x [y]:\n"), DefaultLimits())
	if err != nil || len(d.Goroutines) != 0 {
		t.Errorf("%+v %v", d, err)
	}
}

func TestWorkers(t *testing.T) {
	groups := Workers(readDump(t, "operator.txt", DefaultLimits()))
	if len(groups) != 2 {
		t.Fatalf("%d groups, want 2 (the idle worker in Get and the manager are no workers): %+v", len(groups), groups)
	}
	http := groups[0]
	if http.Count != 2 || http.Longest != 3*time.Minute || http.State != "select" ||
		http.Wait.Func != "net/http.(*Client).Do" || http.Own.Func != "example.com/annotator/internal/controller.(*annotator).callBackend" {
		t.Errorf("HTTP group: %d, %s, %q, wait %q, own %q", http.Count, http.Longest, http.State, http.Wait.Func, http.Own.Func)
	}
	mutex := groups[1]
	if mutex.Count != 1 || mutex.Wait.Func != "sync.(*Mutex).Lock" || mutex.Own.Func != "example.com/annotator/internal/controller.(*AnnotationReconciler).Reconcile" || mutex.Own.Line != 70 {
		t.Errorf("mutex group: %+v", mutex)
	}
}

func TestParseKeepsWithinItsMemory(t *testing.T) {
	dump := bigDump(1<<20, 0)
	var b strings.Builder
	for i := range 1000 {
		b.WriteString("goroutine " + strconv.Itoa(i+1) + " [select]:\n")
		b.WriteString("main.(*r).processNextWorkItem()\n\t/src/main.go:3 +0x1\n\n")
	}
	d, err := ParseWorkers(strings.NewReader(string(dump)+b.String()), Limits{Goroutines: 10_000, Frames: 8, LineBytes: 4096, KeptBytes: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Goroutines)+d.Dropped != 1000 || d.Dropped == 0 || len(d.Goroutines) == 0 || d.Total < 1000+(1<<20)/400 {
		t.Errorf("%d workers kept, %d dropped, %d in all; want the 1000 workers kept within 16 KiB or counted", len(d.Goroutines), d.Dropped, d.Total)
	}
}

func TestParseSaturatesTheWait(t *testing.T) {
	for _, minutes := range []string{"9223372036854775807", "153722868", "99999999999999999999999"} {
		d, err := Parse(strings.NewReader("goroutine 7 [select, "+minutes+" minutes]:\nmain.f()\n"), DefaultLimits())
		if err != nil || len(d.Goroutines) != 1 {
			t.Fatalf("%s minutes: %+v %v", minutes, d, err)
		}
		if w := d.Goroutines[0].Waiting; w != maxWaiting {
			t.Errorf("%s minutes: waiting %s, want the longest that can be said (%s)", minutes, w, maxWaiting)
		}
	}
	d, _ := Parse(strings.NewReader("goroutine 7 [select, 153722867 minutes]:\n"), DefaultLimits())
	if w := d.Goroutines[0].Waiting; w != 153722867*time.Minute {
		t.Errorf("the longest wait said exactly: %s", w)
	}
}
