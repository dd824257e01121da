package cmd

import (
	"maps"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// --tenant sets the tenant headers of Mimir/Cortex and Thanos alike, next to the other
// headers; the same header given by --prometheus-header too, a tenant with blanks around it
// or control characters, and --tenant without --prometheus are usage errors naming the flag.
func TestTenantFlag(t *testing.T) {
	spec := func(args ...string) (map[string]string, error) {
		f := parsed(t, args...)
		s, err := f.Spec(&cli.GlobalFlags{}, nil)
		return s.Prometheus.Headers, err
	}
	got, err := spec("--prometheus", "http://thanos:9090", "--tenant", "team-a", "--prometheus-header", "X-Extra=1")
	want := map[string]string{"X-Scope-OrgID": "team-a", "THANOS-TENANT": "team-a", "X-Extra": "1"}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("--tenant team-a: headers %v, %v; want %v", got, err, want)
	}
	for _, bad := range [][]string{
		{"--prometheus", "http://thanos:9090", "--tenant", "team-a", "--prometheus-header", "x-scope-orgid=team-b"},
		{"--prometheus", "http://thanos:9090", "--tenant", " team-a"},
		{"--prometheus", "http://thanos:9090", "--tenant", "team\x1b[2Ja"},
		{"--tenant", "team-a"},
	} {
		_, err := spec(bad...)
		if code, _ := cli.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--tenant") || code != cli.ExitUsage || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: %v (exit %d), want a usage error naming --tenant, escaped", bad, err, code)
		}
	}
}
