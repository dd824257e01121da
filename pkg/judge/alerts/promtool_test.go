package alerts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// promtool runs Prometheus' own rule checker; Debian's prometheus package ships it
// (hack/test-deps.sh). A missing promtool fails the test: these tests are the proof that
// Prometheus accepts the rules.
func promtool(t *testing.T, dir string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatalf("promtool is not on PATH: install Debian's prometheus package (hack/test-deps.sh installs it as root)")
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func mustBuild(t *testing.T, o Options) Set {
	t.Helper()
	s, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPromtoolChecksEveryFormat writes each output that is a rule file (the PrometheusRule's
// spec for -o prometheusrule) and has promtool check it, with the default options and with a
// selector, another window and changed thresholds.
func TestPromtoolChecksEveryFormat(t *testing.T) {
	custom := DefaultOptions()
	custom.Window = 2 * 60e9
	sel, err := ParseSelector(`{namespace="ops", job=~"op-.*", pod!~'canary-\\d+'}`)
	if err != nil {
		t.Fatal(err)
	}
	custom.Selector = sel
	if err := custom.Thresholds.Set("webhookLatency=1s"); err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]Options{"defaults": DefaultOptions(), "custom": custom} {
		s := mustBuild(t, o)
		for _, format := range []string{"yaml", "prometheusrule", "json"} {
			var buf bytes.Buffer
			if err := Write(&buf, format, s, Meta{Name: "ctrldiag", Namespace: "monitoring", Labels: map[string]string{"release": "prom"}}); err != nil {
				t.Fatal(err)
			}
			out := buf.Bytes()
			if format == "prometheusrule" {
				var pr PrometheusRule
				if err := yaml.Unmarshal(out, &pr); err != nil {
					t.Fatal(err)
				}
				if pr.Kind != "PrometheusRule" || pr.APIVersion != "monitoring.coreos.com/v1" || pr.Metadata.Namespace != "monitoring" || pr.Metadata.Labels["release"] != "prom" {
					t.Errorf("%s: PrometheusRule header = %+v %+v", name, pr.APIVersion, pr.Metadata)
				}
				if out, err = yaml.Marshal(pr.Spec); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), out, 0o644); err != nil {
				t.Fatal(err)
			}
			got := promtool(t, dir, "check", "rules", "rules.yaml")
			if want := len(s.Records) + len(s.Alerts); !strings.Contains(got, "SUCCESS: "+itoa(want)+" rules found") {
				t.Errorf("%s -o %s: promtool says %q, want %d rules", name, format, got, want)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
