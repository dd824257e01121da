package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// klog writes once, to the command's stderr, with bearer tokens masked, at every severity.
func TestKlogGoesThroughRedaction(t *testing.T) {
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	NewRoot(RootSpec{Use: "x"}, streams)
	klog.Info("request: Authorization: Bearer info-secret-token")
	klog.ErrorS(nil, "failed", "data", "Bearer error-secret-token")
	klog.Flush()
	got := errOut.String()
	if strings.Contains(got, "secret-token") || strings.Count(got, "[REDACTED]") != 2 {
		t.Fatalf("klog output is not masked, or not written once:\n%s", got)
	}
}

// A usage error is one line and a pointer to -h (exit 2), never a page of usage; a failure
// after the flags were accepted is exit 1 without the pointer.
func TestUsageErrorsPointToHelp(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string // on stderr
	}{
		{"unknown flag", []string{"sub", "--bogus"}, 2, "error: unknown flag: --bogus\nSee 'kubectl x sub -h' for help and examples.\n"},
		{"unknown command", []string{"nope"}, 2, "error: unknown command \"nope\" for \"kubectl x\"\nSee 'kubectl x -h' for help and examples.\n"},
		// cobra's suggestion is indented with spaces, not printed as a literal \t.
		{"typo", []string{"sbu"}, 2, "error: unknown command \"sbu\" for \"kubectl x\"\n\nDid you mean this?\n  sub\nSee 'kubectl x -h'"},
		{"bad value", []string{"sub", "--n", "many"}, 2, "See 'kubectl x sub -h'"},
		{"failure", []string{"sub", "--fail"}, 1, "error: it broke\n"},
		// A failure before the flags are validated (an input file that is not what it should
		// be) is a failure all the same when the command says so.
		{"failure before validation", []string{"sub", "--fail-early"}, 1, "error: not a snapshot\n"},
		// An engine's error that says it is no usage error (Usage() false) is a failure too.
		{"engine failure before validation", []string{"sub", "--engine-fail"}, 1, "error: not gzip\n"},
		{"engine usage error", []string{"sub", "--engine-usage"}, 2, "error: give one\nSee 'kubectl x sub -h'"},
		{"success", []string{"sub"}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			streams, _, out, errOut := genericiooptions.NewTestIOStreams()
			root, _ := NewRoot(RootSpec{Use: "x", DisplayName: "kubectl x"}, streams)
			var fail, failEarly, engineFail, engineUsage bool
			var n int
			sub := &cobra.Command{Use: "sub", Args: cobra.NoArgs, RunE: func(cmd *cobra.Command, _ []string) error {
				if failEarly {
					return Failure(errors.New("not a snapshot"))
				}
				if engineFail || engineUsage {
					return engineError{errors.New(map[bool]string{true: "give one", false: "not gzip"}[engineUsage]), engineUsage}
				}
				cmd.SilenceUsage = true // the flags are valid
				if fail {
					return errors.New("it broke")
				}
				return nil
			}}
			sub.Flags().BoolVar(&fail, "fail", false, "")
			sub.Flags().BoolVar(&failEarly, "fail-early", false, "")
			sub.Flags().BoolVar(&engineFail, "engine-fail", false, "")
			sub.Flags().BoolVar(&engineUsage, "engine-usage", false, "")
			sub.Flags().IntVar(&n, "n", 0, "")
			root.AddCommand(sub)
			root.SetArgs(tt.args)
			code := Main(root, errOut)
			got := errOut.String()
			if code != tt.code || !strings.Contains(got, tt.want) || (tt.want == "" && got != "") {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, got, tt.code, tt.want)
			}
			if strings.Contains(out.String()+got, "Usage:") || strings.Contains(got, "See ") && tt.code != 2 {
				t.Errorf("stdout %q, stderr %q", out.String(), got)
			}
		})
	}
}

// engineError is an error of an engine package that says whether it is a usage error.
type engineError struct {
	error
	usage bool
}

func (e engineError) Usage() bool { return e.usage }

// The final error is written with credentials masked and control characters escaped; the
// lines the plugin broke it into stay, and none of them can start a CI workflow command.
func TestErrorIsMaskedAndEscaped(t *testing.T) {
	redact.Add("rootcmd-secret-1")
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	root, _ := NewRoot(RootSpec{Use: "x", DisplayName: "kubectl x"}, streams)
	root.AddCommand(&cobra.Command{Use: "sub", RunE: func(cmd *cobra.Command, _ []string) error {
		cmd.SilenceUsage = true
		return errors.New("no target could be read:\n  a: 500: rootcmd-secret-1 Bearer Zm9vYmFyYmF6 \x1b]0;pwned\x07\x1b[2J\u202e\r::error file=x::pwned")
	}})
	root.SetArgs([]string{"sub"})
	if code := Main(root, errOut); code != 1 {
		t.Errorf("exit %d", code)
	}
	got := errOut.String()
	want := "error: no target could be read:\n  a: 500: [REDACTED] Bearer [REDACTED] \\x1b]0;pwned\\x07\\x1b[2J\\u202e\\r::error file=x::pwned\n"
	if got != want {
		t.Errorf("stderr %q\nwant   %q", got, want)
	}
}

// A panic in a command is a bug: one line on stderr that says so, with the version, the
// panic's value escaped and masked, no stack trace, and exit 1.
func TestPanicIsOneLine(t *testing.T) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	root, _ := NewRoot(RootSpec{Use: "x", DisplayName: "kubectl x"}, streams)
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var m map[string]int
		m["x"]++ // a nil map: the runtime panics
		return nil
	}})
	root.AddCommand(&cobra.Command{Use: "hostile", RunE: func(*cobra.Command, []string) error {
		panic("label \x1b]0;pwned\x07 Authorization: Bearer panic-secret-token")
	}})
	for _, tt := range []struct{ args, want string }{
		{"boom", "assignment to entry in nil map"},
		{"hostile", `label \x1b]0;pwned\x07`},
	} {
		root.SetArgs([]string{tt.args})
		errOut.Reset()
		code := Main(root, errOut)
		got := errOut.String()
		if code != ExitError || strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "error: internal error in kubectl-ctrldiag ") ||
			!strings.Contains(got, "this is a bug") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line saying it is a bug, with %q", tt.args, code, got, tt.want)
		}
		if strings.Contains(got, "goroutine ") || strings.Contains(got, ".go:") || strings.Contains(got, "panic-secret-token") || strings.ContainsAny(got, "\x1b\x07") {
			t.Errorf("%s: stderr holds a stack, a credential or a control character: %q", tt.args, got)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing", out.String())
	}
}
