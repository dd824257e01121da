package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// --max-source-resolution takes auto (its default), raw, 5m or 1h and goes to the server's
// spec; another value, or the flag without --prometheus, is a usage error naming the flag
// and what it takes.
func TestMaxSourceResolutionFlag(t *testing.T) {
	spec := func(args ...string) (string, error) {
		f := parsed(t, args...)
		s, err := f.Spec(&cli.GlobalFlags{}, nil)
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
		if code, _ := cli.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--max-source-resolution") || code != cli.ExitUsage || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: %v (exit %d), want a usage error naming --max-source-resolution, escaped", bad, err, code)
		}
	}
}

// A live view's history is recent: --max-source-resolution given to it is a usage error.
func TestMaxSourceResolutionLive(t *testing.T) {
	f := SourceDefaults()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.AddFlags(fs, false)
	if err := fs.Parse([]string{"--prometheus", "http://thanos:9090", "--max-source-resolution", "5m"}); err != nil {
		t.Fatal(err)
	}
	_, err := f.LiveSpec(&cli.GlobalFlags{}, nil)
	if code, _ := cli.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--max-source-resolution") || code != cli.ExitUsage {
		t.Errorf("live view with --max-source-resolution 5m: %v (exit %d), want a usage error naming it", err, code)
	}
}
