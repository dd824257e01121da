package alerts

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// TestAlertsCoverTheCatalog: every check of the catalog has an alert or is listed as not
// exported, never both; a new check must choose.
func TestAlertsCoverTheCatalog(t *testing.T) {
	s := mustBuild(t, DefaultOptions())
	alerted := map[string]bool{}
	for _, a := range s.Alerts {
		alerted[a.Check] = true
		if !regexp.MustCompile(`^` + Prefix + `([A-Z][a-z0-9]*|OOM|API)+$`).MatchString(a.Name) {
			t.Errorf("%s: not CamelCase with the prefix %s", a.Name, Prefix)
		}
	}
	for _, d := range findings.Catalog() {
		_, skipped := notExportedWhy[d.Check]
		if alerted[d.Check] == skipped {
			t.Errorf("%s %s: alert %v, listed as not exported %v: it needs exactly one", d.Code, d.Check, alerted[d.Check], skipped)
		}
	}
	for check := range notExportedWhy {
		if _, ok := findings.Lookup(check); !ok {
			t.Errorf("not exported %q is no check of the catalog", check)
		}
	}
}

// TestAlertsUseTheThresholds: a changed threshold shows in the expression that judges it.
func TestAlertsUseTheThresholds(t *testing.T) {
	o := DefaultOptions()
	for _, kv := range []string{"stuckAfter=2m", "backlogDepth=250", "errorRatio=0.25", "webhookLatency=2s"} {
		if err := o.Thresholds.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	o.Window = 10 * time.Minute
	s := mustBuild(t, o)
	want := map[string]string{
		"CtrlDiagWorkerStuck":    "workqueue_longest_running_processor_seconds >= 120",
		"CtrlDiagBacklogHigh":    "ctrldiag:workqueue_depth:sum >= 250",
		"CtrlDiagRetryStorm":     "ctrldiag:controller_reconcile_errors:ratio_10m > 0.25",
		"CtrlDiagWebhookLatency": "ctrldiag:controller_runtime_webhook_latency_seconds:p90_10m >= 2",
		"CtrlDiagSlowReconcile":  "(workqueue_longest_running_processor_seconds - workqueue_longest_running_processor_seconds offset 10m) >= 300",
	}
	for _, a := range s.Alerts {
		if w, ok := want[a.Name]; ok && !strings.Contains(a.Expr, w) {
			t.Errorf("%s: expression lacks %q:\n%s", a.Name, w, a.Expr)
		}
	}
	if !strings.Contains(Header(s), "backlogDepth=250") || !strings.Contains(Header(s), "[10m]") {
		t.Errorf("the header does not say the options:\n%s", Header(s))
	}
	var webhookBucket bool
	for _, r := range s.Records {
		webhookBucket = webhookBucket || strings.Contains(r.Expr, `le=~"10(\\.0)?"`)
	}
	if !webhookBucket {
		t.Error("webhookLatency=2s: the bucket that starts the sure range is le=10")
	}
}

// TestNoRateOfAGauge: rate, irate and increase only ever read counters, the series of
// classic histograms, and native histograms: a bare name whose classic form (_count or
// _bucket) the same expression reads.
func TestNoRateOfAGauge(t *testing.T) {
	s := mustBuild(t, DefaultOptions())
	re := regexp.MustCompile(`(?:rate|increase)\(([a-z_:]+)`)
	for _, r := range append(append([]Rule(nil), s.File.Groups[0].Rules...), s.File.Groups[1].Rules...) {
		for _, m := range re.FindAllStringSubmatch(r.Expr, -1) {
			n := m[1]
			native := strings.Contains(r.Expr, "histogram_") && (strings.Contains(r.Expr, "("+n+"_count") || strings.Contains(r.Expr, "("+n+"_bucket"))
			if !native && !strings.HasSuffix(n, "_total") && !strings.HasSuffix(n, "_bucket") && !strings.HasSuffix(n, "_sum") && !strings.HasSuffix(n, "_count") {
				t.Errorf("%s%s: rate or increase of %s, not a counter", r.Alert, r.Record, n)
			}
		}
	}
}

func TestForOverrides(t *testing.T) {
	o := DefaultOptions()
	o.For = map[string]time.Duration{"workers-saturated": 30 * time.Minute}
	s := mustBuild(t, o)
	for _, g := range s.File.Groups {
		for _, r := range g.Rules {
			if r.Alert == "CtrlDiagWorkersSaturated" && r.For != "30m" {
				t.Errorf("for = %q, want 30m", r.For)
			}
		}
	}
	for _, bad := range []map[string]time.Duration{{"warm-standby": time.Minute}, {"nope": time.Minute}, {"hot-loop": -time.Minute}} {
		o.For = bad
		if _, err := Build(o); err == nil {
			t.Errorf("--for %v: want an error", bad)
		}
	}
}

func TestSelectorOnEverySeries(t *testing.T) {
	o := DefaultOptions()
	var err error
	if o.Selector, err = ParseSelector(`namespace="ops"`); err != nil {
		t.Fatal(err)
	}
	s := mustBuild(t, o)
	// Every selector of a controller's series carries the matcher; kube-state-metrics' are
	// joined to the targets instead.
	sel := regexp.MustCompile(`\b((?:[a-z_]+|ctrldiag:[a-z_:0-9]+))(\{[^}]*\})?(\[|\s|\)|$|,)`)
	checked := 0
	for _, g := range s.File.Groups {
		for _, r := range g.Rules {
			for _, m := range sel.FindAllStringSubmatch(r.Expr, -1) {
				name := m[1]
				if !isSeries(name) || strings.HasPrefix(name, "kube_") {
					continue
				}
				checked++
				if !strings.Contains(m[2], `namespace="ops"`) {
					t.Errorf("%s%s: %s%s lacks the selector", r.Alert, r.Record, name, m[2])
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d series selectors found: the test reads the expressions wrong", checked)
	}
}

// isSeries tells metric names from PromQL's words in an expression.
func isSeries(w string) bool {
	if strings.HasPrefix(w, RecordPrefix) {
		return true
	}
	for _, suffix := range []string{"_total", "_seconds", "_bucket", "_sum", "_count", "_items", "_bytes", "_reconciles", "_workers", "_status", "_depth"} {
		if strings.HasSuffix(w, suffix) {
			return true
		}
	}
	return w == "up"
}

func TestParseSelector(t *testing.T) {
	for in, want := range map[string]string{
		`{namespace="x"}`:                    `namespace="x"`,
		`namespace="x", job=~"op-.*"`:        `namespace="x",job=~"op-.*"`,
		`{ pod!~'canary-\\d+' , app!="db" }`: `pod!~"canary-\\d+",app!="db"`,
		"{team=`a\"b`}":                      `team="a\"b"`,
		``:                                   ``,
	} {
		ms, err := ParseSelector(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := selectorString(ms); strings.ReplaceAll(got, ", ", ",") != want {
			t.Errorf("%q = %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{`{namespace="x"`, `namespace`, `namespace=x`, `1ns="x"`, `a=~"("`, `__name__="up"`, `a="x" b="y"`, `a="x`} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}
