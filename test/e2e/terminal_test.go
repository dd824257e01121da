//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// On a terminal, a verb other than top writes its output and nothing else: no query of the
// terminal's colours or cursor, which a terminal that does not answer (a serial console, an
// editor's terminal, script(1)) would make the command wait for.
func TestNoTerminalQueriesOutsideTop(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	for _, verb := range []string{"version", "explain CD201", "targets -n " + ns} {
		// script(1) runs the command on a new pseudo-terminal that answers nothing and copies
		// what the command wrote to it; stdin is empty, so script does not wait for input.
		r := runAs(t, env.kubeconfig, "script", "-qec", "kubectl ctrldiag "+verb, "/dev/null")
		if r.Code != 0 {
			t.Errorf("%s on a terminal: exit %d\n%s", verb, r.Code, r)
			continue
		}
		for _, query := range []string{"\x1b]11;?", "\x1b]10;?", "\x1b[6n", "\x1b[c"} {
			if strings.Contains(r.Stdout, query) {
				t.Errorf("%s on a terminal writes the query %q:\n%q", verb, query, r.Stdout)
			}
		}
	}
}
