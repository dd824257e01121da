package cmd

import (
	"os"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

func explainRun(args ...string) (string, int, string) {
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewExplainCmd(streams)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(out)
	code, msg := cli.CodeFor(cmd.Execute())
	return out.String(), code, msg
}

func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		out, msg string
	}{
		{nil, cli.ExitOK, "workers-saturated", ""},
		{[]string{"cd208"}, cli.ExitOK, "CD208 workers-saturated: All workers busy", ""},
		{[]string{"thresholds"}, cli.ExitOK, "stuckAfter", ""},
		{[]string{"status"}, cli.ExitOK, "SATURATED", ""},
		{[]string{"capacity"}, cli.ExitOK, "--target-queue-wait", ""},
		{[]string{"capacity"}, cli.ExitOK, "that flag's documented default", ""},
		{[]string{"stauts"}, cli.ExitUsage, "", `no topic "stauts" (did you mean status?)`},
		{[]string{"status", "-o", "json"}, cli.ExitUsage, "", "text only"},
		{[]string{"-o", "yaml"}, cli.ExitUsage, "", "needs a topic"},
		{[]string{"CD208", "-o", "xml"}, cli.ExitUsage, "", `unknown output format "xml"`},
	} {
		out, code, msg := explainRun(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(msg, tc.msg) {
			t.Errorf("explain %q: exit %d, %q, output:\n%s\nwant exit %d, %q in the output, %q in the error", tc.args, code, msg, out, tc.code, tc.out, tc.msg)
		}
	}
}

func TestExplainAsData(t *testing.T) {
	out, code, msg := explainRun("workers-saturated", "-o", "yaml")
	var c struct {
		Code       string
		Thresholds []struct{ Name, Default string }
	}
	if err := yaml.Unmarshal([]byte(out), &c); code != 0 || err != nil || c.Code != "CD208" || len(c.Thresholds) != 3 {
		t.Errorf("explain workers-saturated -o yaml: exit %d %s %v:\n%s", code, msg, err, out)
	}
	out, _, _ = explainRun("thresholds", "-o", "json")
	if !strings.HasPrefix(out, "[") || !strings.Contains(out, `"name": "minEvents"`) {
		t.Errorf("explain thresholds -o json:\n%s", out)
	}
}

// README shows what explain CD208 prints, as it prints it: its first lines, then "...".
func TestREADMEExample(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(b), "$ kubectl ctrldiag explain CD208\n")
	if !ok {
		t.Fatal("README has no example of kubectl ctrldiag explain CD208")
	}
	example, _, _ = strings.Cut(example, "```")
	shown, cut := strings.CutSuffix(example, "...\n")
	if out, _, _ := explainRun("CD208"); !cut || !strings.HasPrefix(out, shown) || len(shown) < 200 {
		t.Errorf("README's example of explain CD208 is not what it prints now:\n%s", out)
	}
}
