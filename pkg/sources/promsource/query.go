package promsource

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// markers are the families whose presence makes a scrape target a controller worth reading:
// workqueues, controller-runtime, leader election, and the API server's flow control. Every
// Go program exports process_* and go_*; those alone do not make a target.
var markers = []string{
	"workqueue_adds_total", "workqueue_depth", "controller_runtime_reconcile_total",
	"leader_election_master_status", "apiserver_flowcontrol_rejected_requests_total",
}

// counterSuffixes are the name endings of the series that only grow between resets: counters
// and the parts of histograms and summaries.
const counterSuffixes = `.+(_total|_bucket|_sum|_count)`

// selector is the label matchers every query shares.
type selector struct {
	clusterLabel string
	clusters     []string
	namespace    string
}

// matchers renders the shared matchers, then extra ones, as PromQL's {...} body.
func (s selector) matchers(extra ...string) string {
	var m []string
	if len(s.clusters) > 0 {
		m = append(m, s.clusterLabel+`=~`+quote(alternation(s.clusters)))
	}
	if s.namespace != "" {
		m = append(m, `namespace=`+quote(s.namespace))
	}
	return strings.Join(append(m, extra...), ", ")
}

// nameRegex matches the families by name, and the _bucket, _sum and _count series of those that
// are histograms or summaries; fragment, when set, matches any name containing it.
func nameRegex(families []string, fragment string) string {
	quoted := make([]string, len(families))
	for i, f := range families {
		quoted[i] = regexp.QuoteMeta(f)
	}
	sort.Strings(quoted)
	re := "(" + strings.Join(quoted, "|") + ")(_bucket|_sum|_count)?"
	if fragment != "" {
		re += "|.*" + regexp.QuoteMeta(fragment) + ".*"
	}
	return re
}

// targetsQuery counts, per scrape target, the series of the marker families.
func targetsQuery(s selector) string {
	return "count by (" + strings.Join(targetLabels(s.clusterLabel), ", ") + ") ({" +
		s.matchers(`__name__=~`+quote(alternation(markers))) + "})"
}

// jobs is how a reading query keeps to the jobs of the targets Open finds: in the query itself,
// "and on (job)" the jobs with series of the marker families at the window's end (those of
// the targets the targets query finds there), so that the reading need not wait for Open's
// answer and narrows the same at the window's start as at its end (PromQL's @ modifier); or,
// where the server refuses @, by the jobs' names.
type jobs struct {
	byName bool
	names  []string
	end    time.Time
}

// matchers are the matchers of a narrowing by name.
func (j jobs) matchers() []string {
	if !j.byName {
		return nil
	}
	return []string{`job=~` + quote(alternation(j.names))}
}

// and is the narrowing in the query, appended to a reading query's expression.
func (j jobs) and(s selector) string {
	if j.byName {
		return ""
	}
	return " and on (job) count by (job) ({" + s.matchers(`__name__=~`+quote(alternation(markers))) + "} @ " + UnixSeconds(j.end) + ")"
}

// familiesQuery selects the families of the controllers' jobs.
func familiesQuery(s selector, nameRe string, j jobs) string {
	return "{" + s.matchers(append([]string{`__name__=~` + quote(nameRe)}, j.matchers()...)...) + "}" + j.and(s)
}

// restartsQuery lists the targets, of the controllers' jobs, whose process restarted within the
// range: their counters were reset. (resets() cannot say it for many families in one query:
// it drops the names, and series of different families with the same labels collide.)
func restartsQuery(s selector, rng string, j jobs) string {
	return "changes({" + s.matchers(append([]string{`__name__="process_start_time_seconds"`}, j.matchers()...)...) + "}[" + rng + "]) > 0" + j.and(s)
}

// rawQuery selects the raw samples over the range of the counter-like series of the given
// jobs and instances (those where a reset was seen): counters, the parts of classic histograms
// and summaries, and the native histograms named.
func rawQuery(s selector, nameRe string, native, jobs, instances []string, rng string) string {
	counters := counterSuffixes
	if len(native) > 0 {
		counters += "|" + alternation(native)
	}
	return "{" + s.matchers(`__name__=~`+quote(nameRe), `__name__=~`+quote(counters), `job=~`+quote(alternation(jobs)),
		`instance=~`+quote(alternation(instances))) + "}[" + rng + "]"
}

// targetLabels are the labels that name a scrape target.
func targetLabels(clusterLabel string) []string {
	return []string{clusterLabel, "namespace", "pod", "job", "instance"}
}

// alternation is a regex matching exactly the given values.
func alternation(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = regexp.QuoteMeta(v)
	}
	sort.Strings(q)
	return strings.Join(q, "|")
}

// quote renders a PromQL string literal.
func quote(s string) string { return strconv.Quote(s) }

// promDuration renders a duration the way PromQL reads it (whole milliseconds).
func promDuration(ms int64) string { return strconv.FormatInt(ms, 10) + "ms" }
