package cmd

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// A --url value that is not an http or https URL is a usage error (exit 2) showing the value as
// typed, without its password, and the URL meant.
func TestBadURLIsAUsageError(t *testing.T) {
	for raw, want := range map[string]string{
		"127.0.0.1:8080/metrics":        `--url "127.0.0.1:8080/metrics": not a URL with a scheme; did you mean http://127.0.0.1:8080/metrics?`,
		"bob:pw-url-9@127.0.0.1:8080/x": `--url "bob:xxxxx@127.0.0.1:8080/x": not a URL with a scheme; did you mean http://bob:xxxxx@127.0.0.1:8080/x?`,
		"tcp://127.0.0.1:8080/metrics":  `--url "tcp://127.0.0.1:8080/metrics": the scheme must be http or https, not tcp`,
	} {
		f := SourceDefaults()
		f.URLs = []string{raw}
		code, msg := cli.CodeFor(f.validate(nil))
		if code != cli.ExitUsage || msg != want || strings.Contains(msg, "pw-url-9") {
			t.Errorf("--url %s: exit %d %q, want exit %d %q", raw, code, msg, cli.ExitUsage, want)
		}
	}
}
