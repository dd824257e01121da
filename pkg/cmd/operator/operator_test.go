package operator

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewRootCmd(streams)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(out)
	err := cmd.Execute()
	return out.String(), err
}

func TestInstallDryRunJSON(t *testing.T) {
	out, err := execute(t, "install", "--dry-run=client", "-o", "json", "-n", "demo", "--image", "img:1", "--scenario", "stuck")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Kind  string
		Items []struct {
			Kind     string
			Metadata struct{ Name, Namespace string }
		}
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	kinds := []string{}
	for _, it := range list.Items {
		kinds = append(kinds, it.Kind)
		if it.Kind == "Deployment" && it.Metadata.Namespace != "demo" {
			t.Errorf("deployment namespace %q, want demo", it.Metadata.Namespace)
		}
	}
	want := "CustomResourceDefinition,Namespace,ServiceAccount,Role,RoleBinding,ClusterRole,ClusterRoleBinding,ClusterRole,ClusterRoleBinding,ClusterRole,Deployment,Service"
	if got := strings.Join(kinds, ","); list.Kind != "List" || got != want {
		t.Errorf("kinds = %s, want %s", got, want)
	}
	if !strings.Contains(out, "--scenario=stuck") || !strings.Contains(out, `"img:1"`) {
		t.Error("scenario or image not passed to the Deployment")
	}
}

func TestBadFlagsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"install", "--dry-run=server"},
		{"install", "--scenario", "nope", "--dry-run=client"},
		{"install", "--scenario", "apf-throttled", "--dry-run=client"}, // needs cluster-wide flow control objects
		{"install", "--scenario", "slow-webhook", "--dry-run=client"},  // needs a webhook configuration
		{"install", "--memory-limit", "lots", "--dry-run=client"},
		{"run", "--scenario", "nope", "-n", "x"},
		{"run", "--workers", "0", "-n", "x"},
	} {
		_, err := execute(t, args...)
		if code, _ := cli.CodeFor(err); code != cli.ExitUsage {
			t.Errorf("%v: exit code %d (%v), want usage error", args, code, err)
		}
	}
}

// `kubectl ctrldiag operator version` describes the operator's binary, not the plugin's.
func TestVersionNamesTheOperator(t *testing.T) {
	out, err := execute(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "kubectl-ctrldiag-operator ") {
		t.Errorf("operator version printed %q, want it to start with kubectl-ctrldiag-operator", out)
	}
}

// install -o completes with the formats install accepts.
func TestInstallOutputCompletion(t *testing.T) {
	out, err := execute(t, "__complete", "install", "-o", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "yaml\njson\n:4\n"; !strings.HasPrefix(out, want) {
		t.Errorf("__complete install -o \"\" printed %q, want %q first", out, want)
	}
}

// install --scenario completes with the scenarios install accepts, never with file names;
// run's with every scenario.
func TestScenarioCompletion(t *testing.T) {
	for _, c := range []struct {
		verb     string
		want     []string
		excluded []string
	}{
		{"install", []string{"slow", "stuck"}, []string{"apf-throttled", "slow-webhook"}},
		{"run", []string{"slow", "stuck", "apf-throttled", "slow-webhook"}, nil},
	} {
		out, err := execute(t, "__complete", c.verb, "--scenario", "")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !slices.Contains(lines, ":4") {
			t.Errorf("%s --scenario printed %q, want directive :4 (no file names)", c.verb, lines)
		}
		for _, w := range c.want {
			if !slices.Contains(lines, w) {
				t.Errorf("%s --scenario offers %q, want %s among them", c.verb, lines, w)
			}
		}
		for _, w := range c.excluded {
			if slices.Contains(lines, w) {
				t.Errorf("%s --scenario offers %s, which it refuses", c.verb, w)
			}
		}
	}
}
