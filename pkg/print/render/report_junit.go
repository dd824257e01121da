package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// ReportJUnit writes the report as JUnit XML for CI test reporters: a <testsuite> per target,
// those with findings first, in the report's order (ranked by impact); a <testcase> per check
// judged for it (judgedChecks), its findings first, in that order; a <failure> for each
// warning or critical finding, an <error> for a target that could not be read, info findings
// as passing cases with <system-out>, and suppressed findings as <skipped>. A check with
// several findings on a target (one per queue) gives a case per finding, so that failures
// plus errors count the warning and critical findings. time is the window the target was
// judged over, in seconds. The attributes are those of the JUnit schema Jenkins publishes
// (skipped only on suites).
func ReportJUnit(w io.Writer, r view.Report) error {
	r = printable.Value(r)
	suites := junitSuites{Name: "kubectl ctrldiag report"}
	for _, id := range junitTargets(r) {
		s := suiteFor(r, id)
		suites.Tests += s.Tests
		suites.Failures += s.Failures
		suites.Errors += s.Errors
		suites.Suites = append(suites.Suites, s)
	}
	suites.Time = seconds(windowOf(r.Window))
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(suites); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitMessage `xml:"skipped"`
	Error     *junitMessage `xml:"error"`
	Failure   *junitMessage `xml:"failure"`
	SystemOut *junitText    `xml:"system-out"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// junitTargets are the suites' names: the targets with findings in the order of the report's
// findings (ranked by impact), then every other target read or not, and any other subject a
// suppressed finding names, sorted.
func junitTargets(r view.Report) []string {
	var ids []string
	seen := map[string]bool{}
	for _, f := range r.Findings {
		if !seen[f.Target] {
			seen[f.Target] = true
			ids = append(ids, f.Target)
		}
	}
	var rest []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			rest = append(rest, id)
		}
	}
	for _, x := range r.Resources {
		add(x.Target)
	}
	for _, e := range r.Errors {
		add(e.Target)
	}
	if r.Suppressions != nil {
		for _, s := range r.Suppressions.Findings {
			add(s.Target)
		}
	}
	sort.Strings(rest)
	return append(ids, rest...)
}

// suiteFor is target id's suite: a case per finding, in the report's order, then per check in
// the catalog's order the suppressed findings (skipped) and the checks judged that found
// nothing (passed).
func suiteFor(r view.Report, id string) junitSuite {
	s := junitSuite{Name: id, Time: seconds(targetWindow(r, id)), Timestamp: r.GeneratedAt.UTC().Format("2006-01-02T15:04:05")}
	byCheck := map[string]int{}
	var fs []findings.Finding
	for _, f := range r.Findings {
		if f.Target == id {
			byCheck[f.Check]++
			fs = append(fs, f)
		}
	}
	suppressed := map[string][]view.Suppressed{}
	if r.Suppressions != nil {
		for _, x := range r.Suppressions.Findings {
			if x.Target == id {
				suppressed[x.Check] = append(suppressed[x.Check], x)
			}
		}
	}
	for _, f := range fs {
		name := f.Code + " " + f.Check
		c := junitCase{Classname: f.Check, Name: caseName(name, f.Queue, byCheck[f.Check]+len(suppressed[f.Check])), Time: "0"}
		m := &junitMessage{Message: f.Title, Type: string(f.Severity), Text: findingText(f)}
		switch {
		case f.Check == "scrape-failed":
			c.Error = m
			s.Errors++
		case f.Severity == findings.Warning || f.Severity == findings.Critical:
			c.Failure = m
			s.Failures++
		default:
			c.SystemOut = &junitText{findingText(f)}
		}
		s.Cases = append(s.Cases, c)
	}
	judged := judgedChecks(r, id)
	for _, d := range findings.Catalog() {
		n, sup := byCheck[d.Check], suppressed[d.Check]
		if !judged[d.Check] && n == 0 && len(sup) == 0 {
			continue
		}
		name := d.Code + " " + d.Check
		if n == 0 && len(sup) == 0 {
			s.Cases = append(s.Cases, junitCase{Classname: d.Check, Name: name, Time: "0"})
		}
		for _, x := range sup {
			s.Cases = append(s.Cases, junitCase{Classname: d.Check, Name: caseName(name, x.Queue, n+len(sup)), Time: "0",
				Skipped:   &junitMessage{Message: "suppressed: " + x.Reason + " (" + x.Source + ")"},
				SystemOut: &junitText{findingText(x.Finding)}})
			s.Skipped++
		}
	}
	s.Tests = len(s.Cases)
	return s
}

// caseName is "CODE slug", with the queue when the check gave several findings on the target.
func caseName(name, queue string, n int) string {
	if n > 1 && queue != "" {
		return name + ": " + queue
	}
	return name
}

// findingText is a finding's body for <failure>, <error> and <system-out>.
func findingText(f findings.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", f.Summary)
	if f.Queue != "" {
		fmt.Fprintf(&b, "queue: %s\n", f.Queue)
	}
	for _, e := range f.Evidence {
		fmt.Fprintf(&b, "- %s\n", evidence(e))
	}
	fmt.Fprintf(&b, "fix: %s\n", f.Recommendation)
	return b.String()
}

// judgedGroups say when a check's rule runs for a target, from what the report holds of it:
// every target read runs the target rules; the pod rules need the pod (or, for memory, a
// --memory-limit); the queue rules need a queue; cache-sync-lag an informer; leader-election
// judges a workload's replicas together, webhook-slows-writes, flowschema-waits and request-latency join a
// controller to the API server's page, spec-latency-slo to a watch of its objects, and not-syncing needs a
// controller that syncs on a period and its pod's arguments, and workers-blocked a goroutine dump and a
// workers knob, so they only show where they found something.
var judgedGroups = map[string][]string{
	"read":     {"scrape-failed", "metric-type", "no-workqueue-metrics", "client-throttling", "server-throttling", "api-errors", "webhook-latency", "reconcile-panics", "reconcile-timeouts"},
	"pod":      {"restarts"},
	"memory":   {"memory-pressure"},
	"queue":    {"stuck-worker", "retry-storm", "hot-loop", "workers-saturated", "slow-reconcile", "backlog-growing", "backlog-high", "persistent-failures", "lifetime-failures", "priority-starvation", "warm-standby", "under-provisioned", "queue-wait-slo", "stale-sync-skips"},
	"informer": {"cache-sync-lag"},
	"workload": {"leader-election"},
	"joined":   {"webhook-slows-writes", "flowschema-waits", "request-latency", "spec-latency-slo", "not-syncing", "workers-blocked"},
}

// judgedChecks are the checks whose rule ran for target id (judgedGroups). A target that gave
// no figures was judged by scrape-failed only.
func judgedChecks(r view.Report, id string) map[string]bool {
	has := map[string]bool{}
	for _, x := range r.Resources {
		if x.Target == id {
			has["read"] = true
			has["memory"] = x.MemoryLimitBytes != nil
		}
	}
	for _, p := range r.Pods {
		if strings.HasPrefix(id, p.Namespace+"/"+p.Name+":") {
			has["pod"], has["memory"] = has["read"], has["read"]
		}
	}
	for _, b := range r.Backlog {
		has["queue"] = has["queue"] || b.Target == id
	}
	for _, i := range r.CacheSync.Informers {
		has["informer"] = has["informer"] || i.Target == id
	}
	out := map[string]bool{}
	for group, checks := range judgedGroups {
		for _, c := range checks {
			out[c] = has[group]
		}
	}
	return out
}

// targetWindow is the window target id was judged over: its own when an error entry names one.
func targetWindow(r view.Report, id string) time.Duration {
	for _, e := range r.Errors {
		if e.Target == id {
			return windowOf(e.Window)
		}
	}
	return windowOf(r.Window)
}

// windowOf reads a window name; "lifetime" and "" are 0: nothing was timed.
func windowOf(name string) time.Duration {
	d, err := time.ParseDuration(name)
	if err != nil {
		return 0
	}
	return d
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
