package sourceflags

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
)

// --max-source-resolution takes auto (its default), raw, 5m or 1h and goes to the server's
// spec; another value, or the flag without --prometheus, is a usage error naming the flag
// and what it takes.
func TestMaxSourceResolutionFlag(t *testing.T) {
	spec := func(args ...string) (string, error) {
		f := parsed(t, args...)
		s, err := f.Spec(&globals.Flags{}, nil)
		return s.Prometheus.MaxSourceResolution, err
	}
	for args, want := range map[string]string{"": "auto", "--max-source-resolution=raw": "raw", "--max-source-resolution=1h": "1h"} {
		a := []string{"--prometheus", "http://thanos:9090"}
		if args != "" {
			a = append(a, args)
		}
		if got, err := spec(a...); err != nil || got != want {
			t.Errorf("%v: %q, %v; want %q", a, got, err, want)
		}
	}
	for _, bad := range [][]string{
		{"--prometheus", "http://thanos:9090", "--max-source-resolution", "10m"},
		{"--prometheus", "http://thanos:9090", "--max-source-resolution", "r\x1b[2Jaw"},
		{"--max-source-resolution", "raw"},
	} {
		_, err := spec(bad...)
		if code, _ := exitcode.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--max-source-resolution") || code != exitcode.Usage || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: %v (exit %d), want a usage error naming --max-source-resolution, escaped", bad, err, code)
		}
	}
}

// A live view's history is recent: --max-source-resolution given to it is a usage error.
func TestMaxSourceResolutionLive(t *testing.T) {
	f := Defaults()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.AddFlags(fs, false)
	if err := fs.Parse([]string{"--prometheus", "http://thanos:9090", "--max-source-resolution", "5m"}); err != nil {
		t.Fatal(err)
	}
	_, err := f.LiveSpec(&globals.Flags{}, nil)
	if code, _ := exitcode.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--max-source-resolution") || code != exitcode.Usage {
		t.Errorf("live view with --max-source-resolution 5m: %v (exit %d), want a usage error naming it", err, code)
	}
}
