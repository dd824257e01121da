package cmd

import (
	"testing"

	"github.com/spf13/pflag"
)

// parsed is the source flags a command line sets, as a command that reads them (with
// Prometheus) has them.
func parsed(t *testing.T, args ...string) SourceFlags {
	t.Helper()
	f := SourceDefaults()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.AddFlags(fs, true)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}
