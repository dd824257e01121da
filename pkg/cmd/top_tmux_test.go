package cmd

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/tmuxterm"
)

func contains(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	}
}

// rowOf is the screen's line of a row of queue.
func rowOf(screen, queue string) string {
	for _, l := range strings.Split(screen, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == queue {
			return l
		}
	}
	return ""
}

// sgrColour matches an SGR sequence that sets a foreground colour.
var sgrColour = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)(?:;[0-9;]*)?m`)

// With NO_COLOR the view has no colour, only bold, underline and reverse; it follows a resize;
// Ctrl-C quits with 0 and leaves the terminal as it was.
func TestTopNoColorResizeCtrlCInTmux(t *testing.T) {
	bin := buildBinary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/failing" {
			http.Error(w, "no", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"deep\"} 500\n")
	}))
	defer srv.Close()
	x := tmuxterm.New(t, fmt.Sprintf("NO_COLOR=1 %s top --url %s/metrics --url %s/failing --refresh 300ms; echo \"exit status $?\"; sleep 600",
		bin, srv.URL, srv.URL))
	x.WaitFor(15*time.Second, "the rows", contains("deep", "BACKLOG", "ERROR"))
	if s := x.Run("capture-pane", "-p", "-e", "-t", "top"); sgrColour.MatchString(s) || !strings.Contains(s, "\x1b[") {
		t.Errorf("with NO_COLOR: colour, or no styling at all:\n%q", s)
	}

	// The view follows a resize: no line wider than the new width, the keys on the last line.
	x.Run("resize-window", "-t", "top", "-x", "90", "-y", "20")
	s := x.WaitFor(15*time.Second, "the view at 90x20", func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return len(lines) == 20 && strings.HasPrefix(lines[19], "q quit")
	})
	for _, l := range strings.Split(s, "\n") {
		if n := len([]rune(l)); n > 90 {
			t.Errorf("a line of %d cells after the resize to 90: %q", n, l)
		}
	}

	// Ctrl-C quits with 0, as q does, and leaves the terminal as it was.
	x.Keys("C-c")
	s = x.WaitFor(15*time.Second, "the exit", contains("exit status "))
	if !strings.Contains(s, "exit status 0") || strings.Contains(s, "TOP FINDING") {
		t.Errorf("after Ctrl-C:\n%s", s)
	}
	if got := strings.TrimSpace(x.Run("display-message", "-p", "-t", "top", "#{alternate_on} #{cursor_flag}")); got != "0 1" {
		t.Errorf("after Ctrl-C: alternate screen and cursor flags %q, want \"0 1\"", got)
	}
}

// built is the kubectl-ctrldiag binary the terminal tests run, built once for them all into
// dir, which TestMain removes after the tests.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildBinary returns kubectl-ctrldiag built into a temporary directory, the first call building
// it (a link of the whole plugin takes seconds: once for every test of the package).
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "ctrldiag-top-test-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		built.bin = filepath.Join(dir, "kubectl-ctrldiag")
		if out, err := exec.Command("go", "build", "-o", built.bin, "../../cmd/kubectl-ctrldiag").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestTopInTmux runs `top --url` in tmux against endpoints whose pages change: a queue whose
// depth climbs, a saved controller-runtime page, and one that goes away. Rows appear and
// update, s sorts, / filters, Enter opens a queue's details, the target that went away is an
// ERROR row while the others stay, and q exits 0 leaving the terminal as it was: the
// alternate screen left, the cursor shown, no escape sequence on the screen.
func TestTopInTmux(t *testing.T) {
	bin := buildBinary(t)
	saved, err := os.ReadFile("../../testdata/pages/controller-runtime-2.prom")
	if err != nil {
		t.Fatal(err)
	}
	// A live endpoint has no sample-time comment: the time is when it was read.
	saved = []byte(strings.TrimPrefix(string(saved), string(saved[:strings.IndexByte(string(saved), '\n')+1])))
	var n atomic.Int64
	var gone atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/climbing":
			i := n.Add(1)
			fmt.Fprintf(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"climbing\"} %d\n"+
				"# TYPE workqueue_adds_total counter\nworkqueue_adds_total{name=\"climbing\"} %d\n", 7*i, 1000+50*i)
		case r.URL.Path == "/saved":
			w.Write(saved)
		case r.URL.Path == "/leaving" && !gone.Load():
			fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"leaving\"} 2\n")
		default:
			http.Error(w, "gone", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()

	cmd := fmt.Sprintf("%s top --url %s/climbing --url %s/saved --url %s/leaving --refresh 300ms; echo \"exit status $?\"; sleep 600",
		bin, srv.URL, srv.URL, srv.URL)
	x := tmuxterm.New(t, cmd)

	// Rows appear, then update: the depth of climbing changes from one refresh to the next.
	s := x.WaitFor(15*time.Second, "the rows", contains("kubectl ctrldiag top", "climbing", "widget", "gadget", "leaving", "TOP FINDING"))
	first := rowOf(s, "climbing")
	x.WaitFor(15*time.Second, "climbing to update", func(s string) bool { r := rowOf(s, "climbing"); return r != "" && r != first })
	// Rates between refreshes; worst first: gadget (a BACKLOG of 120) above widget (OK: its
	// page does not change, so nothing failed in the window).
	s = x.WaitFor(15*time.Second, "a window between two refreshes", func(s string) bool {
		return strings.Contains(s, "window: ") && !strings.Contains(s, "window: lifetime") && !strings.Contains(s, "window: mixed")
	})
	if !(strings.Index(s, "gadget") < strings.Index(s, "widget")) || !strings.Contains(rowOf(s, "gadget"), "BACKLOG") || !strings.Contains(rowOf(s, "widget"), "OK") {
		t.Errorf("worst first, gadget BACKLOG above widget OK:\n%s", s)
	}
	// s sorts by depth: climbing, deep by then, comes first.
	x.WaitFor(15*time.Second, "climbing to be deep", func(s string) bool { return strings.Contains(rowOf(s, "climbing"), "BACKLOG") })
	x.Keys("s")
	s = x.WaitFor(15*time.Second, "sort by depth", contains("sort: depth"))
	if i := strings.Index(s, "climbing"); i < 0 || i > strings.Index(s, "widget") {
		t.Errorf("sorted by depth, climbing first:\n%s", s)
	}
	// / filters.
	x.Keys("/", "gadg", "Enter")
	s = x.WaitFor(15*time.Second, "the filter", contains("filter: gadg", "TOP FINDING"))
	if strings.Contains(s, "climbing") || strings.Contains(s, "widget") || !strings.Contains(s, "gadget") {
		t.Errorf("filtered by gadg:\n%s", s)
	}
	// Enter opens the queue's details, with its findings.
	x.Keys("Down", "Enter")
	s = x.WaitFor(15*time.Second, "the details of gadget", contains("Findings:", "completions/s"))
	if !strings.Contains(s, "gadget  BACKLOG") || !strings.Contains(s, "WARNING CD219") || !strings.Contains(s, "threshold >= 100") {
		t.Errorf("details:\n%s", s)
	}
	x.Keys("Escape")
	x.WaitFor(15*time.Second, "the table", contains("TOP FINDING", "filter: gadg"))
	x.Keys("Escape")
	x.WaitFor(15*time.Second, "the filter cleared", func(s string) bool {
		return contains("climbing", "widget", "sort: depth")(s) && !strings.Contains(s, "filter:")
	})

	// A target that goes away becomes an ERROR row; the view goes on.
	gone.Store(true)
	s = x.WaitFor(15*time.Second, "the ERROR row", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "/leaving") && strings.Contains(l, "ERROR") && strings.Contains(l, "503") {
				return true
			}
		}
		return false
	})
	before := rowOf(s, "climbing")
	x.WaitFor(15*time.Second, "climbing to go on updating", func(s string) bool { r := rowOf(s, "climbing"); return r != "" && r != before })

	// STATUS is coloured on a terminal (an SGR foreground colour, 30-37 or 90-97).
	if colour := x.Run("capture-pane", "-p", "-e", "-t", "top"); !sgrColour.MatchString(colour) {
		t.Errorf("no colour on a terminal without NO_COLOR:\n%q", colour)
	}

	// ? shows the help; q quits with 0 and leaves the terminal as it was.
	x.Keys("?")
	x.WaitFor(15*time.Second, "the help", contains("cycle the sort"))
	x.Keys("Escape") // alone: Escape then a key at once reads as Alt+key
	x.WaitFor(15*time.Second, "the table", contains("s sort  / filter"))
	x.Keys("q")
	s = x.WaitFor(15*time.Second, "the exit", contains("exit status 0"))
	if strings.Contains(s, "TOP FINDING") || strings.ContainsAny(s, "\x1b") || strings.Contains(s, "[?") {
		t.Errorf("the screen after q shows the view or escape sequences:\n%q", s)
	}
	if got := strings.TrimSpace(x.Run("display-message", "-p", "-t", "top", "#{alternate_on} #{cursor_flag}")); got != "0 1" {
		t.Errorf("after q: alternate screen and cursor flags %q, want \"0 1\" (main screen, cursor shown)", got)
	}
}

// On a terminal, -o prints the refreshes as in a pipe rather than the full-screen view: a name
// per refresh is on the screen and the alternate screen was never entered.
func TestTopOutputOnATerminalPrints(t *testing.T) {
	bin := buildBinary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"deep\"} 500\n")
	}))
	defer srv.Close()
	x := tmuxterm.New(t, fmt.Sprintf("%s top --url %s/metrics --refresh 200ms --count 2 -o name; echo \"exit status $?\"; sleep 600", bin, srv.URL))
	s := x.WaitFor(30*time.Second, "the exit", contains("exit status "))
	if !strings.Contains(s, "exit status 0") || strings.Count(s, "queue.ctrldiag.dev/"+srv.URL+"/metrics/deep\n") != 2 || strings.Contains(s, "q quit") {
		t.Errorf("top -o name on a terminal: want the queue's name printed at each of two refreshes, no view:\n%s", s)
	}
	if got := strings.TrimSpace(x.Run("display-message", "-p", "-t", "top", "#{alternate_on}")); got != "0" {
		t.Errorf("alternate screen after top -o name: %q, want 0", got)
	}
}
