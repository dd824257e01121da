package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// The prometheus section's store: n synthetic controller targets, each exporting a captured
// controller-runtime page, as a scrape would have stored them (namespace, pod, job and
// instance labels on every series), one sample a step from before the window's start to its
// end. The first page's values hold until the middle of the window, the second page's after:
// counters grow between the window's ends, as from one process scraped twice.

// fleetTarget is one synthetic scrape target: the labels a scrape of it adds.
type fleetTarget struct{ namespace, pod, job, instance string }

// fleetTargets names n targets, spread over namespaces, each namespace its own job, as a
// ServiceMonitor per team would scrape them.
func fleetTargets(n int) []fleetTarget {
	out := make([]fleetTarget, n)
	for i := range out {
		ns := fmt.Sprintf("team-%02d", i%20)
		out[i] = fleetTarget{
			namespace: ns,
			pod:       fmt.Sprintf("controller-%04d-7d9f8b6c5-x2x4z", i),
			job:       ns + "/controller-manager-metrics",
			instance:  fmt.Sprintf("10.%d.%d.%d:8443", 64+i/65536, i/256%256, i%256),
		}
	}
	return out
}

// labels renders the target's labels as the start of a label set.
func (t fleetTarget) labels() string {
	return fmt.Sprintf(`instance=%q,job=%q,namespace=%q,pod=%q`, t.instance, t.job, t.namespace, t.pod)
}

// sampleLines are a page's sample lines (comments and blank lines dropped), each split into
// its name and the rest (the label set, if any, and the value).
type sampleLine struct{ name, labels, value string }

// pageSamples reads the sample lines of a page in the text format.
func pageSamples(r io.Reader) ([]sampleLine, error) {
	var out []sampleLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		var s sampleLine
		if i := strings.IndexByte(l, '{'); i >= 0 {
			j := strings.LastIndexByte(l, '}')
			if j < i {
				return nil, fmt.Errorf("unbalanced label set: %s", l)
			}
			s.name, s.labels, s.value = l[:i], l[i+1:j], strings.TrimSpace(l[j+1:])
		} else {
			name, value, ok := strings.Cut(l, " ")
			if !ok {
				return nil, fmt.Errorf("no value: %s", l)
			}
			s.name, s.value = name, strings.TrimSpace(value)
		}
		if f := strings.Fields(s.value); len(f) != 1 {
			return nil, fmt.Errorf("want a value without timestamp: %s", l)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// writeFleet writes, in the OpenMetrics text that `promtool tsdb create-blocks-from
// openmetrics` reads, the samples of every target from start to end, one each step: first's
// values before mid, second's from it. first and second hold the same series in the same
// order. Each series' samples come in time order, as the backfill needs.
func writeFleet(w io.Writer, targets []fleetTarget, first, second []sampleLine, start, mid, end time.Time, step time.Duration) error {
	if len(first) != len(second) {
		return fmt.Errorf("the pages hold %d and %d samples", len(first), len(second))
	}
	for i := range first {
		if first[i].name != second[i].name || first[i].labels != second[i].labels {
			return fmt.Errorf("the pages differ in series %d: %s{%s} and %s{%s}", i, first[i].name, first[i].labels, second[i].name, second[i].labels)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	for t := start; !t.After(end); t = t.Add(step) {
		page := first
		if !t.Before(mid) {
			page = second
		}
		ts := t.Unix()
		for _, tg := range targets {
			l := tg.labels()
			for _, s := range page {
				sep := ""
				if s.labels != "" {
					sep = ","
				}
				if _, err := fmt.Fprintf(bw, "%s{%s%s%s} %s %d\n", s.name, l, sep, s.labels, s.value, ts); err != nil {
					return err
				}
			}
		}
	}
	if _, err := bw.WriteString("# EOF\n"); err != nil {
		return err
	}
	return bw.Flush()
}
