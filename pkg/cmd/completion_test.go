package cmd

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// complete runs `kubectl-ctrldiag __complete args...`, what kubectl_complete-ctrldiag runs for
// kubectl, and returns the offered values and the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	root := NewRootCmd(streams)
	// No kubeconfig reaches a cluster: completion must stay silent about it.
	root.SetArgs(append([]string{"__complete", "--kubeconfig", t.TempDir() + "/none"}, args...))
	if err := root.Execute(); err != nil {
		t.Fatalf("__complete %q: %v", args, err)
	}
	if e := errOut.String(); strings.Contains(strings.ToLower(e), "error") {
		t.Errorf("__complete %q wrote an error to stderr: %q", args, e)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		t.Fatalf("__complete %q: no directive line in %q", args, out)
	}
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// Directives as cobra prints them: NoFileComp is 4, NoSpace 2, FilterFileExt 8.
const (
	noFiles        = ":4"
	noFilesNoSpace = ":6"
	fileExt        = ":8"
)

func TestCompleteOutputFormats(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"queues", "-o", ""}, "table wide json yaml name custom-columns= custom-columns-file= jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"targets", "--output", ""}, "table wide json yaml name custom-columns= custom-columns-file= jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"report", "-o", ""}, "text wide json yaml markdown html junit github jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"snapshot", "-o", ""}, "text wide json yaml markdown html junit github jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"diff", "-o", ""}, "text json yaml markdown jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"top", "-o", ""}, "table wide json yaml name custom-columns= custom-columns-file= jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"rules", "-o", ""}, "yaml prometheusrule json table jsonpath= jsonpath-file= jsonpath-as-json= go-template= go-template-file= template= templatefile="},
		{[]string{"version", "-o", ""}, "json yaml"},
		{[]string{"report", "-o", "j"}, "json junit jsonpath= jsonpath-file= jsonpath-as-json="},
		{[]string{"report", "-o", "ju"}, "junit"},
		{[]string{"report", "-o=ya"}, "yaml"},
	} {
		got, directive := complete(t, tc.args...)
		if strings.Join(got, " ") != tc.want || directive != noFiles {
			t.Errorf("__complete %q = %q %s, want %q %s", tc.args, got, directive, tc.want, noFiles)
		}
	}
}

// A template form takes its template right after the "=": no space is added after it.
func TestCompleteTemplateFormatWithoutSpace(t *testing.T) {
	got, directive := complete(t, "queues", "-o", "custom")
	if strings.Join(got, " ") != "custom-columns= custom-columns-file=" || directive != ":6" {
		t.Errorf("__complete queues -o custom = %q %s, want the custom-columns forms and :6 (no space, no files)", got, directive)
	}
}

// Every value -o completes is one the command accepts, and nothing else: run each verb with
// each offered value and see that only an unknown one is refused as a format.
func TestCompletedFormatsAreAccepted(t *testing.T) {
	for _, verb := range []string{"queues", "targets", "top", "report", "diff", "rules", "version"} {
		values, _ := complete(t, verb, "-o", "")
		for _, v := range append(values, "no-such-format") {
			streams, _, _, _ := genericiooptions.NewTestIOStreams()
			root := NewRootCmd(streams)
			// Arguments that fail right after the flags are read, whatever the format.
			args := []string{verb, "-o", v, "--kubeconfig", t.TempDir() + "/none", "--concurrency", "0"}
			switch verb {
			case "diff":
				args = []string{verb, "-o", v, "--deadline", "0", "a", "b"}
			case "rules":
				args = []string{verb, "-o", v, "--window", "0s"}
			case "top":
				args = []string{verb, "-o", v, "--url", "http://x", "--threshold", "nope=1"}
			case "version":
				args = []string{verb, "-o", v}
			}
			root.SetArgs(args)
			err := root.Execute()
			refused := err != nil && strings.Contains(err.Error(), "unknown output format")
			if refused != (v == "no-such-format") {
				t.Errorf("%s -o %s: %v", verb, v, err)
			}
		}
	}
}

func TestCompleteFailOn(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "--fail-on", ""}, "none warning critical"},
		{[]string{"snapshot", "--fail-on", ""}, "none warning critical"},
		{[]string{"diff", "--fail-on", ""}, "none new-warning new-critical"},
		{[]string{"diff", "--fail-on", "new-c"}, "new-critical"},
	} {
		got, directive := complete(t, tc.args...)
		if strings.Join(got, " ") != tc.want || directive != noFiles {
			t.Errorf("__complete %q = %q %s, want %q %s", tc.args, got, directive, tc.want, noFiles)
		}
	}
}

func TestCompleteThreshold(t *testing.T) {
	names := findings.ThresholdNames()
	for _, verb := range []string{"queues", "top", "report", "snapshot", "rules"} {
		got, directive := complete(t, verb, "--threshold", "")
		if directive != noFilesNoSpace {
			t.Errorf("%s --threshold: directive %s, want %s (no space after name=)", verb, directive, noFilesNoSpace)
		}
		if len(got) != len(names) {
			t.Errorf("%s --threshold offered %d values, want one per threshold (%d): %q", verb, len(got), len(names), got)
		}
		for i := range min(len(got), len(names)) {
			if got[i] != names[i]+"=" {
				t.Errorf("%s --threshold offered %q, want %q", verb, got[i], names[i]+"=")
			}
		}
	}
	if got, _ := complete(t, "queues", "--threshold", "stuck"); strings.Join(got, " ") != "stuckAfter=" {
		t.Errorf("--threshold stuck offered %q, want stuckAfter=", got)
	}
	// Once the name is typed, the value is the user's: nothing is offered, and no file names.
	if got, directive := complete(t, "queues", "--threshold", "stuckAfter="); len(got) != 0 || directive != noFilesNoSpace {
		t.Errorf("--threshold stuckAfter= offered %q %s, want nothing", got, directive)
	}
	if got, directive := complete(t, "report", "--thresholds", ""); strings.Join(got, " ") != "yaml yml" || directive != fileExt {
		t.Errorf("--thresholds offered %q %s, want YAML files", got, directive)
	}
}

func TestCompleteVia(t *testing.T) {
	for _, verb := range []string{"queues", "top", "targets", "report", "snapshot"} {
		got, directive := complete(t, verb, "--via", "")
		if strings.Join(got, " ") != "auto proxy port-forward" || directive != noFiles {
			t.Errorf("%s --via offered %q %s", verb, got, directive)
		}
	}
	if got, _ := complete(t, "queues", "--via", "p"); strings.Join(got, " ") != "proxy port-forward" {
		t.Errorf("--via p offered %q", got)
	}
}

func TestCompleteFor(t *testing.T) {
	got, directive := complete(t, "rules", "--for", "")
	if directive != noFilesNoSpace || len(got) < 5 {
		t.Fatalf("rules --for offered %q %s, want the checks with alerts as CHECK=", got, directive)
	}
	for _, want := range []string{"workers-saturated=", "stuck-worker=", "scrape-failed="} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("rules --for does not offer %s: %q", want, got)
		}
	}
	// A check without an alert is refused by --for: it must not be offered.
	if strings.Contains(strings.Join(got, " "), "warm-standby=") {
		t.Errorf("rules --for offers warm-standby, which has no alert: %q", got)
	}
}

func TestCompleteSubcommands(t *testing.T) {
	got, _ := complete(t, "")
	have := map[string]bool{}
	for _, line := range got {
		have[strings.SplitN(line, "\t", 2)[0]] = true
	}
	for _, want := range []string{"queues", "top", "targets", "report", "snapshot", "diff", "rules", "operator", "version", "completion"} {
		if !have[want] {
			t.Errorf("__complete \"\" does not offer %s: %q", want, got)
		}
	}
}

// Without a cluster, namespaces and pods complete to nothing, silently and at once.
func TestCompleteClusterNamesWithoutCluster(t *testing.T) {
	for _, args := range [][]string{{"queues", "-n", ""}, {"queues", ""}, {"report", "--namespace", "k"}} {
		if got, directive := complete(t, args...); len(got) != 0 || directive != noFiles {
			t.Errorf("__complete %q without a cluster = %q %s, want nothing", args, got, directive)
		}
	}
}

// explain completes its topic with the topics, the checks' codes and names.
func TestCompleteExplainTopics(t *testing.T) {
	for typed, want := range map[string]string{"sta": "status", "CD20": "CD208", "workers-": "workers-saturated", "thr": "thresholds"} {
		got, directive := complete(t, "explain", typed)
		if directive != noFiles || !slices.Contains(got, want) {
			t.Errorf("explain %q completes to %q %s, want %s among them", typed, got, directive, want)
		}
	}
	if got, _ := complete(t, "explain", "status", ""); len(got) != 0 {
		t.Errorf("explain takes one topic, a second is completed with %q", got)
	}
}

// Only an argument that is a file offers files: diff's BEFORE and AFTER. Every other verb's
// arguments offer what they are (pods, topics, sub-commands) or nothing.
func TestCompleteArgumentsOfferFilesOnlyWhereFiles(t *testing.T) {
	for _, args := range [][]string{
		{"queues", ""}, {"top", ""}, {"targets", ""}, {"report", ""}, {"snapshot", ""},
		{"rules", ""}, {"version", ""}, {"explain", ""}, {"operator", ""}, {"operator", "install", ""},
		{"diff", "a.tar.gz", "b.tar.gz", ""},
	} {
		if _, directive := complete(t, args...); directive != noFiles {
			t.Errorf("__complete %q ends %s, want %s (no files)", args, directive, noFiles)
		}
	}
	for _, args := range [][]string{{"diff", ""}, {"diff", "a.tar.gz", ""}, {"queues", "--from-file", ""}, {"report", "--kubeconfig", ""}} {
		if _, directive := complete(t, args...); directive != ":0" {
			t.Errorf("__complete %q ends %s, want :0 (files)", args, directive)
		}
	}
}
