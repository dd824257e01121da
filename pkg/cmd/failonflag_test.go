package cmd

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// The flag report and diff register: its default, its help, its errors and its decision.
func TestFlag(t *testing.T) {
	warning := []findings.Finding{{Severity: findings.Warning}}
	for _, tc := range []struct {
		scale             findings.FailOnScale
		help, good, wrong string
		err               string
	}{
		{findings.FailOnReported, "Exit 3 when a finding reaches this severity: none, warning or critical", "warning", "sometimes",
			`--fail-on must be none, warning or critical, got "sometimes"`},
		{findings.FailOnAppeared, "Exit 3 when a finding of this severity appeared: none, new-warning or new-critical", "new-warning", "warning",
			`--fail-on must be none, new-warning or new-critical, got "warning" (did you mean new-warning?)`},
	} {
		fl := NewFailOn(tc.scale)
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		fl.AddFlag(fs)
		f := fs.Lookup("fail-on")
		if f == nil || f.DefValue != "none" || f.Usage != tc.help {
			t.Fatalf("--fail-on registered as %+v", f)
		}
		if err := fl.Validate(); err != nil || fl.Fails(warning) {
			t.Errorf("default: %v, fails %v", err, fl.Fails(warning))
		}
		if err := fs.Parse([]string{"--fail-on", tc.good}); err != nil {
			t.Fatal(err)
		}
		if err := fl.Validate(); err != nil || !fl.Fails(warning) || fl.Fails(nil) {
			t.Errorf("%s: %v, fails %v", tc.good, err, fl.Fails(warning))
		}
		fl.Value = tc.wrong
		err := fl.Validate()
		if err == nil || err.Error() != tc.err || code(err) != cli.ExitUsage {
			t.Errorf("%s: %v", tc.wrong, err)
		}
	}
}

func code(err error) int {
	c, _ := cli.CodeFor(err)
	return c
}
