package live

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// hostile would retitle the terminal, clear it, and start a workflow command line.
const hostile = "q\x1b]0;pwned\x07\n::error file=x::pwned\x1b[2J"

func hostileFrame() *view.Frame {
	q := nan(health.QueueStats{Target: "a", Queue: hostile, Depth: 5, AddsPerSecond: 1, Window: 2 * time.Second,
		Status: health.StatusBacklog, Reason: "wait in " + hostile})
	f := &view.Frame{Time: time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC), Warnings: []string{"the server warns: " + hostile},
		List: view.NewQueueList([]health.QueueStats{q}, []view.TargetError{{Target: "b", Error: "500: " + hostile}})}
	return f
}

// assertInert fails on the hostile sequences written raw: the screen's own styling may use
// escapes, never these.
func assertInert(t *testing.T, where, out string) {
	t.Helper()
	for _, raw := range []string{"\x1b]0;", "\x07", "\x1b[2J", "\n::error"} {
		if strings.Contains(out, raw) {
			t.Errorf("%s writes %q raw:\n%q", where, raw, out)
		}
	}
}

func TestTopPrintsTextFromOutsideEscaped(t *testing.T) {
	var out, errOut bytes.Buffer
	next := func(context.Context) (*view.Frame, error) { return hostileFrame(), nil }
	if err := Stream(context.Background(), &out, &errOut, next, Loop{Every: time.Millisecond, Count: 1}, Print{}); err != nil {
		t.Fatal(err)
	}
	assertInert(t, "the stream", out.String())
	assertInert(t, "the stream's stderr", errOut.String())
	if !strings.Contains(out.String(), `q\x1b]0;pwned\x07\n::error`) || !strings.Contains(errOut.String(), `500: q\x1b]0;pwned`) {
		t.Errorf("not shown escaped:\n%s\n%s", out.String(), errOut.String())
	}
	for _, format := range []string{"wide", "json", "yaml", "name", "custom-columns=Q:.queue,R:.reason", `jsonpath={.items[0].queue}`} {
		out.Reset()
		if err := Stream(context.Background(), &out, &errOut, next, Loop{Every: time.Millisecond, Count: 1}, Print{Format: format}); err != nil {
			t.Fatal(err)
		}
		assertInert(t, "the stream -o "+format, out.String())
		if !strings.Contains(out.String(), "pwned") {
			t.Errorf("-o %s does not show the queue:\n%s", format, out.String())
		}
	}

	m := plainModel()
	m.Update(frameMsg{frame: hostileFrame()})
	assertInert(t, "the screen", m.screen())
	press(m, "enter")
	assertInert(t, "the details", m.screen())
	if !strings.Contains(m.screen(), `q\x1b]0;pwned`) {
		t.Errorf("the details do not show the queue escaped:\n%s", m.screen())
	}
}

// Warnings and target errors quote servers, which may echo credentials: the stream and the
// screen mask them, and the frame the run layer gave is left as it is.
func TestTopMasksCredentialsInWarningsAndErrors(t *testing.T) {
	const secret = "live-Secret-Token-0007"
	redact.Add(secret)
	frame := func() *view.Frame {
		f := hostileFrame()
		f.Warnings = []string{"the store says: you sent " + secret}
		f.List.Errors[0].Error = "401: you sent " + secret
		return f
	}
	var out, errOut bytes.Buffer
	next := func(context.Context) (*view.Frame, error) { return frame(), nil }
	if err := Stream(context.Background(), &out, &errOut, next, Loop{Every: time.Millisecond, Count: 1}, Print{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String()+errOut.String(), secret) || !strings.Contains(errOut.String(), "you sent "+redact.Mask) {
		t.Errorf("the stream shows the credential:\n%s\n%s", out.String(), errOut.String())
	}
	for _, format := range []string{"wide", "json", "yaml"} {
		out.Reset()
		if err := Stream(context.Background(), &out, &errOut, next, Loop{Every: time.Millisecond, Count: 1}, Print{Format: format}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), secret) || !strings.Contains(out.String(), "you sent "+redact.Mask) {
			t.Errorf("the stream -o %s shows the credential, or not the error:\n%s", format, out.String())
		}
	}
	f := frame()
	m := plainModel()
	m.Update(frameMsg{frame: f})
	if strings.Contains(m.screen(), secret) {
		t.Errorf("the screen shows the credential:\n%s", m.screen())
	}
	if !strings.Contains(f.Warnings[0], secret) {
		t.Errorf("the run layer's frame was changed: %q", f.Warnings)
	}
}
