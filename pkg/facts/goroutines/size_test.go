package goroutines

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// bigDump writes a dump of at least size bytes: idle goroutines of many short frames (what
// costs the parser most per byte), and among them `workers` workers blocked in an HTTP call.
func bigDump(size, workers int) []byte {
	var b bytes.Buffer
	worker := func(id int) {
		fmt.Fprintf(&b, "goroutine %d [select, 7 minutes]:\n", id)
		b.WriteString("net/http.(*Client).Do(...)\n\t/usr/local/go/src/net/http/client.go:587\n")
		b.WriteString("example.com/op/internal/controller.(*R).Reconcile(0xc0, {0x1, 0x2})\n\t/w/r.go:42 +0x1c5\n")
		b.WriteString("sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler(0x1)\n\t/c/controller.go:461 +0x3b4\n")
		b.WriteString("sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).processNextWorkItem(0x1)\n\t/c/controller.go:421 +0x22e\n")
		b.WriteString("created by sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start.func2 in goroutine 175\n\t/c/controller.go:265 +0x1c5\n\n")
	}
	id := 1
	for b.Len() < size {
		if id%(1+size/(2000*max(workers, 1))) == 0 && workers > 0 {
			worker(id)
			workers--
		} else {
			fmt.Fprintf(&b, "goroutine %d [IO wait]:\n", id)
			for range 30 {
				b.WriteString("a.f()\n\tb:1\n")
			}
			b.WriteString("created by c.g in goroutine 1\n\td:2\n\n")
		}
		id++
	}
	for ; workers > 0; workers-- {
		worker(id)
		id++
	}
	return b.Bytes()
}

// allocated is how many bytes f allocates, all of them, freed or not.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxAllocPerByte is how many bytes the parse of a worker dump may allocate per byte of it.
const maxAllocPerByte = 2

func TestParseWorkersCostsLittleMoreThanTheDump(t *testing.T) {
	dump := bigDump(4<<20, 7)
	var d *Dump
	var err error
	n := allocated(func() { d, err = ParseWorkers(bytes.NewReader(dump), DefaultLimits()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Goroutines) != 7 || d.Dropped != 0 || d.Total < 7+4<<20/400 {
		t.Fatalf("kept %d goroutines of %d (%d dropped), want the 7 workers", len(d.Goroutines), d.Total, d.Dropped)
	}
	groups := Workers(d)
	if len(groups) != 1 || groups[0].Count != 7 || groups[0].Wait.Func != "net/http.(*Client).Do" ||
		groups[0].Own.Func != "example.com/op/internal/controller.(*R).Reconcile" || groups[0].Own.Line != 42 {
		t.Fatalf("groups %+v", groups)
	}
	if n > maxAllocPerByte*uint64(len(dump)) {
		t.Errorf("parsing %d bytes allocated %d (%.1fx), want at most %dx", len(dump), n, float64(n)/float64(len(dump)), maxAllocPerByte)
	}
}

func BenchmarkParseWorkers(b *testing.B) {
	dump := bigDump(32<<20, 50)
	b.SetBytes(int64(len(dump)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseWorkers(bytes.NewReader(dump), DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}
