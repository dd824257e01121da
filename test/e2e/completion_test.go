//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// completions splits the output of `kubectl __complete ...` into the offered values (without
// their descriptions) and the directive line.
func completions(t *testing.T, r Result) ([]string, string) {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("kubectl __complete failed:\n%s", r)
	}
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, ":") {
		t.Fatalf("kubectl __complete printed no directive line:\n%s", r)
	}
	var values []string
	for _, l := range lines[:len(lines)-1] {
		values = append(values, strings.SplitN(l, "\t", 2)[0])
	}
	return values, last
}

// kubectl completes `kubectl ctrldiag ...` through kubectl_complete-ctrldiag on PATH, which
// asks the plugin: the values of -o come from the plugin, not from kubectl's own -o.
func TestCompletionThroughKubectl(t *testing.T) {
	crowd(t)
	values, directive := completions(t, kubectl(t, "__complete", "ctrldiag", "queues", "-o", "w"))
	if got := strings.Join(values, " "); got != "wide" || directive != ":4" {
		t.Errorf("kubectl __complete ctrldiag queues -o w = %q %s, want the plugin's wide :4", got, directive)
	}
	values, directive = completions(t, kubectl(t, "__complete", "ctrldiag", "queues", "-o", "custom"))
	if got := strings.Join(values, " "); got != "custom-columns= custom-columns-file=" || directive != ":6" {
		t.Errorf("kubectl __complete ctrldiag queues -o custom = %q %s, want the plugin's custom-columns forms, :6 (no space)", got, directive)
	}
	values, _ = completions(t, kubectl(t, "__complete", "ctrldiag", "report", "--fail-on", ""))
	if got := strings.Join(values, " "); got != "none warning critical" {
		t.Errorf("kubectl __complete ctrldiag report --fail-on \"\" = %q", got)
	}
}

// With kubectl-ctrldiag-operator on PATH, kubectl runs it for `kubectl ctrldiag operator` and
// completes it through kubectl_complete-ctrldiag-operator: install's scenarios are the ones
// install accepts.
func TestCompletionOfTheOperatorThroughKubectl(t *testing.T) {
	crowd(t)
	values, directive := completions(t, kubectl(t, "__complete", "ctrldiag", "operator", "install", "--scenario", ""))
	have := " " + strings.Join(values, " ") + " "
	if !strings.Contains(have, " stuck ") || strings.Contains(have, " slow-webhook ") || directive != ":4" {
		t.Errorf("kubectl __complete ctrldiag operator install --scenario \"\" = %q %s, want stuck and not slow-webhook, :4", values, directive)
	}
	values, _ = completions(t, kubectl(t, "__complete", "ctrldiag", "operator", ""))
	if have := " " + strings.Join(values, " ") + " "; !strings.Contains(have, " install ") || !strings.Contains(have, " uninstall ") {
		t.Errorf("kubectl __complete ctrldiag operator \"\" = %q, want the operator's commands", values)
	}
}

func TestCompletionListsSubcommands(t *testing.T) {
	crowd(t)
	values, _ := completions(t, kubectl(t, "__complete", "ctrldiag", ""))
	have := map[string]bool{}
	for _, v := range values {
		have[v] = true
	}
	for _, want := range []string{"queues", "top", "targets", "report", "snapshot", "diff", "rules", "operator", "version"} {
		if !have[want] {
			t.Errorf("kubectl __complete ctrldiag \"\" does not offer %s: %q", want, values)
		}
	}
}

// Namespaces and pods come from the cluster the kubeconfig reaches.
func TestCompletionFromTheCluster(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	apply(t, `apiVersion: v1
kind: Pod
metadata:
  name: completion-target
  namespace: `+ns+`
spec:
  containers:
  - name: c
    image: example.invalid/none
`)
	values, directive := completions(t, kubectl(t, "__complete", "ctrldiag", "queues", "-n", ns[:len(ns)-3]))
	if !strings.Contains(" "+strings.Join(values, " ")+" ", " "+ns+" ") || directive != ":4" {
		t.Errorf("kubectl __complete ctrldiag queues -n %s = %q %s, want %s", ns[:len(ns)-3], values, directive, ns)
	}
	values, _ = completions(t, kubectl(t, "__complete", "ctrldiag", "queues", "-n", ns, ""))
	if got := strings.Join(values, " "); got != "completion-target" {
		t.Errorf("kubectl __complete ctrldiag queues -n %s \"\" = %q, want the namespace's pod", ns, got)
	}
	values, _ = completions(t, kubectl(t, "__complete", "ctrldiag", "queues", "-n", ns, "pod/"))
	if got := strings.Join(values, " "); got != "pod/completion-target" {
		t.Errorf("kubectl __complete ctrldiag queues -n %s pod/ = %q", ns, got)
	}
}

// Arguments complete with files only where they are files (diff's BEFORE and AFTER); the
// operator's are answered by the operator binary: its sub-commands, and no files.
func TestCompletionOffersFilesOnlyForFileArguments(t *testing.T) {
	crowd(t)
	plugin := func(args ...string) Result {
		return runAs(t, env.kubeconfig, filepath.Join(env.binDir, "kubectl-ctrldiag"), append([]string{"__complete"}, args...)...)
	}
	values, directive := completions(t, plugin("operator", ""))
	have := " " + strings.Join(values, " ") + " "
	for _, want := range []string{"run", "install", "uninstall", "version"} {
		if !strings.Contains(have, " "+want+" ") {
			t.Errorf("__complete operator \"\" = %q, lacks %s", values, want)
		}
	}
	if directive != ":4" {
		t.Errorf("__complete operator \"\" ends %s, want :4 (no files)", directive)
	}
	for _, args := range [][]string{{"operator", "install", ""}, {"operator", "run", ""}, {"rules", ""}, {"version", ""},
		{"queues", ""}, {"diff", "a.tar.gz", "b.tar.gz", ""}} {
		if _, directive := completions(t, plugin(args...)); directive != ":4" {
			t.Errorf("__complete %q ends %s, want :4 (no files)", args, directive)
		}
	}
	if _, directive := completions(t, plugin("diff", "")); directive != ":0" {
		t.Errorf("__complete diff \"\" ends %s, want :0 (files: snapshots and reports)", directive)
	}
}
