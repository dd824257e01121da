// Package tmuxterm drives a command in a real terminal for tests: a detached tmux session of a
// server of its own (socket), 160x40, with the window "top"; keys go in with send-keys and
// the screen comes out with capture-pane. The server is killed, and its socket removed, when
// the test ends.
package tmuxterm

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Session is one tmux session running one command.
type Session struct {
	t      *testing.T
	socket string
}

// New starts command in a new session; the test fails at once when tmux is missing.
func New(t *testing.T, command string) *Session {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this test drives kubectl ctrldiag top in a real terminal: install Debian's tmux package (hack/test-deps.sh does, as root)")
	}
	x := &Session{t: t, socket: fmt.Sprintf("ctrldiag-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	x.Run("-f", "/dev/null", "new-session", "-d", "-s", "top", "-x", "160", "-y", "40", command)
	// kill-server leaves the socket file behind: remove it after.
	path := strings.TrimSpace(x.Run("display-message", "-p", "#{socket_path}"))
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", x.socket, "kill-server").Run()
		_ = os.Remove(path)
	})
	return x
}

// Run runs a tmux command against the session's server and returns its output.
func (x *Session) Run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Keys sends keys to the pane (tmux key names: Enter, Escape, C-c, or text).
func (x *Session) Keys(keys ...string) { x.Run(append([]string{"send-keys", "-t", "top"}, keys...)...) }

// Screen is the pane's text.
func (x *Session) Screen() string { return x.Run("capture-pane", "-p", "-t", "top") }

// WaitFor waits up to timeout until the screen satisfies ok, and returns it; it fails with why
// and the screen after that.
func (x *Session) WaitFor(timeout time.Duration, why string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := x.Screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("waiting for %s; the screen:\n%s", why, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
