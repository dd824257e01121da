package startheap

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// gogc reads the GC percent in force without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// report, in a child process, prints the GC percent at the start of main and after the first
// collection (once its finaliser has run, when the percent is to change).
func report(changes bool) {
	before := gogc()
	runtime.GC()
	after := gogc()
	for deadline := time.Now().Add(10 * time.Second); changes && after == before && time.Now().Before(deadline); after = gogc() {
		time.Sleep(time.Millisecond)
	}
	fmt.Printf("%d %d\n", before, after)
}

func TestMain(m *testing.M) {
	if c := os.Getenv("STARTHEAP_CHILD"); c != "" {
		report(c == "changes")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child runs report in a process of this test binary, with GOGC set to gogc or unset.
func child(t *testing.T, gogc string) string {
	t.Helper()
	mode := "changes"
	cmd := exec.Command(os.Args[0])
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOGC=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	if gogc != "" {
		cmd.Env, mode = append(cmd.Env, "GOGC="+gogc), "stays"
	}
	cmd.Env = append(cmd.Env, "STARTHEAP_CHILD="+mode)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// Without GOGC the first collection waits for Goal, then GOGC is 100 again; a GOGC set in the
// environment is kept throughout.
func TestStartHeap(t *testing.T) {
	if got, want := child(t, ""), fmt.Sprintf("%d 100", 100*Goal/defaultMinimum); got != want {
		t.Errorf("without GOGC: GC percent before and after the first collection %q, want %q", got, want)
	}
	if got := child(t, "50"); got != "50 50" {
		t.Errorf("GOGC=50: GC percent before and after the first collection %q, want \"50 50\"", got)
	}
}
