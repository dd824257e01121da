package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// section is one table of the report, shared by the text, markdown and html renderers.
type section struct {
	// ID names the section in an HTML page's anchors ("backlog"); set by reportSections.
	ID     string
	Title  string
	Note   string
	Header []string
	Rows   [][]string
	// Sub are extra tables of the same section (e.g. generation lag under cache sync lag).
	Sub []section
	// Drop are the columns the text report leaves out, in this order, while the table is
	// wider than the report (fitTable); -o wide, markdown and html keep them all.
	Drop []string
	// Cut names the last column, a message or a note, whose cells the text report cuts to
	// the width that is left once Drop is done (cutLast).
	Cut string
	// Define says what the section's terms mean (how a figure is made, what a verdict needs):
	// the text report prints it with -o wide only, markdown and html after Note.
	Define string
	// Notable marks the rows worth a look (nil: every row): the text report in its width
	// lists those alone and counts the others.
	Notable []bool
	// Quiet says in one line that the section has nothing to note, for the text report in
	// its width to print after the title instead of the rows and notes when no row is
	// notable; "" when the section always shows itself.
	Quiet string
}

// notable is how many rows are worth a look.
func (s section) notable() int {
	if s.Notable == nil {
		return len(s.Rows)
	}
	n := 0
	for _, b := range s.Notable {
		if b {
			n++
		}
	}
	return n
}

// quiet reports whether the section, and each table under it, has nothing to note.
func (s section) quiet() bool {
	if s.Quiet == "" || s.notable() > 0 {
		return false
	}
	for _, sub := range s.Sub {
		if !sub.quiet() {
			return false
		}
	}
	return true
}

// only is the section with its notable rows alone.
func (s section) only() section {
	if s.Notable == nil {
		return s
	}
	var rows [][]string
	for i, r := range s.Rows {
		if s.Notable[i] {
			rows = append(rows, r)
		}
	}
	s.Rows, s.Notable = rows, nil
	return s
}

// defined is the section with its definitions after its notes, in it and in each table
// under it, as markdown and html print them.
func (s section) defined() section {
	s.Note = strings.TrimSpace(s.Note + " " + s.Define)
	s.Define = ""
	subs := make([]section, len(s.Sub))
	for i, sub := range s.Sub {
		subs[i] = sub.defined()
	}
	s.Sub = subs
	return s
}

// maxRows bounds the busiest-first tables of the human formats; json and yaml hold every row.
const maxRows = 15

// reportSections are the report's tables as markdown and html print them: each with its
// definitions (textSections).
func reportSections(r view.Report) []section {
	ss := textSections(r)
	for i := range ss {
		ss[i] = ss[i].defined()
	}
	return ss
}

// textSections are the report's tables; over a fleet, a summary of the clusters first and a
// CLUSTER column in every table of targets.
func textSections(r view.Report) []section {
	ss := []section{podSection(r), backlogSection(r), cacheSection(r), eventSection(r), resourceSection(r), objectsSection(r), capacitySection(r),
		slisSection(r)}
	for i, id := range []string{"pods", "backlog", "cache", "events", "resources", "objects", "capacity", "slis"} {
		ss[i].ID = id
	}
	if g, ok := goroutineSection(r); ok {
		g.ID = "goroutines"
		ss = append(ss, g)
	}
	if l, ok := logSection(r); ok {
		l.ID = "logs"
		ss = append(ss, l)
	}
	if len(r.Fleet) < 2 {
		return ss
	}
	for i := range ss {
		ss[i] = withClusterColumn(ss[i], r.Fleet)
	}
	f := fleetSection(r)
	f.ID = "fleet"
	return append([]section{f}, ss...)
}

func podSection(r view.Report) section {
	s := section{Title: "1. Controller pods",
		Header: []string{"NAMESPACE", "POD", "PHASE", "READY", "RESTARTS", "AGE", "LAST EXIT", "NODE", "NOTE"},
		Drop:   []string{"NODE", "AGE", "PHASE", "NOTE"}}
	for _, p := range r.Pods {
		s.Rows = append(s.Rows, []string{p.Namespace, p.Name, p.Phase, yesNo(p.Ready), fmt.Sprint(p.Restarts),
			age(p.AgeSeconds), dash(p.LastTermination), dash(p.Node), dash(p.Note)})
		s.Notable = append(s.Notable, p.Phase != "Running" || !p.Ready || p.Restarts > 0 || p.LastTermination != "" || p.Note != "")
	}
	switch {
	case r.ClusterAbsent != "":
		s.Note = "Absent, and so are the Leases: " + r.ClusterAbsent + "."
	case r.ClusterRead != "":
		s.Note = "Read from " + r.ClusterRead + ": restarts and last terminations are the pods' now, beside the series' window."
	case len(r.Pods) == 0:
		s.Note = "No pods: the targets were read directly (--url, --from-file), from a Prometheus server (--prometheus), or are the API server."
	}
	if len(r.Pods) > 0 && s.Note == "" {
		s.Quiet = printable.Plural(len(r.Pods), "pod") + ", running and ready, no restarts"
	}
	s.Define = signalsSaid(r.Signals)
	return s
}

// signalsSaid says, target by target, which signals of newer versions each page gave and why
// the others are absent: "Newer signals: ns/op:8080 gives reconcile timeouts; lacks priority
// queue (plain queues: ...)."
func signalsSaid(ss []view.Signal) string {
	var targets []string
	byTarget := map[string][]view.Signal{}
	for _, s := range ss {
		if _, ok := byTarget[s.Target]; !ok {
			targets = append(targets, s.Target)
		}
		byTarget[s.Target] = append(byTarget[s.Target], s)
	}
	var parts []string
	for _, t := range targets {
		var gives, absent []string
		for _, s := range byTarget[t] {
			if s.Present {
				gives = append(gives, s.Signal)
			} else {
				absent = append(absent, s.Signal+" ("+s.Absent+")")
			}
		}
		part := t
		if len(gives) > 0 {
			part += " gives " + strings.Join(gives, ", ")
		}
		if len(absent) > 0 {
			if len(gives) > 0 {
				part += ";"
			}
			part += " lacks " + strings.Join(absent, ", ")
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Newer signals: " + strings.Join(parts, "; ") + "."
}

func backlogSection(r view.Report) section {
	s := section{Title: "2. Workqueue depth and backlog trend",
		Header: []string{"TARGET", "QUEUE", "DEPTH", "BEFORE", "TREND", "DRAIN TIME", "STATUS"},
		Drop:   []string{"BEFORE", "DRAIN TIME", "TREND"}}
	idle := 0
	for _, b := range r.Backlog {
		if (b.Depth == nil || *b.Depth == 0) && (b.DepthBefore == nil || *b.DepthBefore == 0) && b.Status == "OK" {
			idle++
			continue
		}
		if len(s.Rows) == maxRows {
			idle++
			continue
		}
		s.Rows = append(s.Rows, []string{b.Target, b.Queue, Count(b.Depth), Count(b.DepthBefore), b.Trend, Seconds(b.DrainSeconds), b.Status})
	}
	s.Note = fmt.Sprintf("%s; %d empty or beyond the first %d not shown (-o json lists all).", printable.Plural(len(r.Backlog), "queue"), idle, maxRows)
	if len(s.Rows) == 0 {
		empty := allEmpty(len(r.Backlog))
		s.Note = empty + "."
		if len(r.Backlog) > 0 { // the text report says it after the title
			s.Note, s.Define, s.Quiet = "", empty+".", strings.ToLower(empty[:1])+empty[1:]
		}
	}
	return s
}

func cacheSection(r view.Report) section {
	c := r.CacheSync
	s := section{Title: "3. Cache sync lag",
		Header: []string{"TARGET", "INFORMER", "RESOURCE", "METHOD", "QUEUED EVENTS", "HANDLER p99", "VERSIONS BEHIND", "BEHIND FOR THE WINDOW"},
		Drop:   []string{"METHOD", "INFORMER", "BEHIND FOR THE WINDOW", "HANDLER p99", "VERSIONS BEHIND"}}
	informers := append([]view.Informer(nil), c.Informers...)
	val := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	sort.SliceStable(informers, func(a, b int) bool {
		if qa, qb := val(informers[a].QueuedItems), val(informers[b].QueuedItems); qa != qb {
			return qa > qb
		}
		return val(informers[a].LatencyP99Seconds) > val(informers[b].LatencyP99Seconds)
	})
	for i, inf := range informers {
		if i == maxRows {
			break
		}
		// The informer "name/resource.group": the name is that of the informer factory.
		name, resource, _ := strings.Cut(inf.Informer, "/")
		s.Rows = append(s.Rows, []string{inf.Target, dash(name), resource, inf.Method, Count(inf.QueuedItems), Quantile(inf.LatencyP99Seconds, inf.LatencyP99AtLeast),
			Count(inf.VersionsBehind), yesNo(inf.BehindAPIServer)})
		// Resource versions are the whole cluster's: a store of a namespace in step with it
		// trails them. Events queued are worth a look, and lag is the cache check's to judge.
		s.Notable = append(s.Notable, val(inf.QueuedItems) > 0 || saidBy(r, inf.Target, inf.Informer, "cache-sync-lag") != "")
	}
	methods := "none"
	if len(c.Methods) > 0 {
		methods = strings.Join(c.Methods, ", ")
	}
	s.Define = "Methods that applied: " + methods + "."
	if len(informers) > maxRows {
		s.Define = fmt.Sprintf("%d informers, most queued events first; %d more not shown (-o json lists all). ", len(informers), len(informers)-maxRows) + s.Define
	}
	if c.Note != "" { // what the methods could not measure: -o wide's
		s.Define = strings.TrimSpace(s.Define + " " + upperFirst(c.Note) + ".")
	}
	if r.ClusterAbsent != "" {
		s.Note = strings.TrimSpace(s.Note + " Generation lag absent: " + r.ClusterAbsent + ".")
	}
	checked, generations := 0, ""
	if len(c.Generations) > 0 {
		g := section{Title: "Generation lag (status.observedGeneration < metadata.generation)",
			Header: []string{"RESOURCE", "CHECKED", "LAGGING", "STILL LAGGING AFTER THE WINDOW", "EXAMPLES"},
			Drop:   []string{"EXAMPLES", "STILL LAGGING AFTER THE WINDOW"}}
		for _, x := range c.Generations {
			ex := strings.Join(x.Examples, "; ")
			if x.Error != "" {
				ex = "error: " + x.Error
			}
			g.Rows = append(g.Rows, []string{x.Resource, fmt.Sprint(x.Checked), fmt.Sprint(x.Lagging), fmt.Sprint(x.StillLagging), dash(ex)})
			g.Notable = append(g.Notable, x.Lagging > 0 || x.StillLagging > 0 || x.Error != "")
			checked += x.Checked
		}
		g.Quiet = fmt.Sprintf("none of %s lags", printable.Plural(checked, "object"))
		if checked == 0 {
			g.Quiet = "no object to check"
		}
		generations = "; generation lag: " + g.Quiet
		s.Sub = append(s.Sub, g)
	}
	if len(c.Metrics) > 0 {
		m := section{Title: "Metrics named cache_sync_lag (as exposed)", Header: []string{"TARGET", "SERIES", "VALUE"}}
		for _, x := range c.Metrics {
			m.Rows = append(m.Rows, []string{x.Target, x.Series, Count(x.Value)})
		}
		s.Sub = append(s.Sub, m)
	}
	if len(informers) > 0 {
		s.Quiet = printable.Plural(len(informers), "informer") + ", no events queued, none lagging" + generations
	}
	return s
}

func eventSection(r view.Report) section {
	s := section{Title: "4. Event processing",
		Header: []string{"TARGET", "QUEUE", "ADDS/s", "DONE/s", "RETRIES/s", "QUEUE p50/p90/p99", "WORK p50/p90/p99", "WORK MEAN", "RECONCILES"},
		Drop:   []string{"RECONCILES", "WORK MEAN", "DONE/s", "RETRIES/s", "WORK p50/p90/p99", "QUEUE p50/p90/p99"}}
	quiet := 0
	for _, e := range r.Events {
		if (e.AddsPerSecond == nil || *e.AddsPerSecond == 0) && len(e.WorkBuckets) == 0 || len(s.Rows) == maxRows {
			quiet++
			continue
		}
		s.Rows = append(s.Rows, []string{e.Target, e.Queue, Rate(e.AddsPerSecond), Rate(e.CompletionsPerSecond), Rate(e.RetriesPerSecond),
			triple(e.QueueP50Seconds, e.QueueP50AtLeast, e.QueueP90Seconds, e.QueueP90AtLeast, e.QueueP99Seconds, e.QueueP99AtLeast),
			triple(e.WorkP50Seconds, e.WorkP50AtLeast, e.WorkP90Seconds, e.WorkP90AtLeast, e.WorkP99Seconds, e.WorkP99AtLeast),
			Seconds(e.WorkMeanSeconds), results(e.Reconciles)})
	}
	window := "over the last " + reportWindow(r)
	if r.Window == view.Lifetime {
		window = "since each process started (one sample: no rates)"
	}
	s.Note = fmt.Sprintf("Busiest first, %s; %d more quiet or past the first %d.", window, quiet, maxRows)
	return s
}

func resourceSection(r view.Report) section {
	s := section{Title: "5. Memory and CPU",
		Header: []string{"TARGET", "RESIDENT", "GO HEAP", "CPU", "MEMORY REQUEST/LIMIT", "OF LIMIT", "CPU REQUEST/LIMIT", "METRICS API", "LAST EXIT"},
		Drop:   []string{"METRICS API", "CPU REQUEST/LIMIT", "LAST EXIT", "GO HEAP", "MEMORY REQUEST/LIMIT"}}
	var highest *float64
	for _, x := range r.Resources {
		usage := "-"
		if x.UsageMemoryBytes != nil {
			usage = byteSize(x.UsageMemoryBytes) + ", " + cores(x.UsageCPUCores)
		}
		s.Rows = append(s.Rows, []string{x.Target, byteSize(x.ResidentMemoryBytes), byteSize(x.HeapBytes), cores(x.CPUCores),
			byteSize(x.MemoryRequestBytes) + "/" + byteSize(x.MemoryLimitBytes), percent(x.MemoryOfLimit),
			cores(x.CPURequestCores) + "/" + cores(x.CPULimitCores), usage, dash(x.LastTermination)})
		// Near its limit is the memory check's to say, with its threshold.
		s.Notable = append(s.Notable, x.LastTermination != "" || findingOn(r, x.Target, "memory-pressure"))
		if x.MemoryOfLimit != nil && (highest == nil || *x.MemoryOfLimit > *highest) {
			highest = x.MemoryOfLimit
		}
	}
	switch {
	case r.ResourcesNote != "" && len(r.Resources) > 0:
		// Beside what the targets' own metrics say, the metrics API is a detail.
		s.Define = upperFirst(r.ResourcesNote) + "."
	case r.ResourcesNote != "":
		s.Note = upperFirst(r.ResourcesNote) + "."
	}
	switch targets := printable.Plural(len(r.Resources), "target"); {
	case highest != nil:
		s.Quiet = targets + ", none near its memory limit (at most " + percent(highest) + " of it)"
	case len(r.Resources) > 0:
		s.Quiet = targets + ", none with a memory limit read"
	}
	return s
}

// reportWindow is the report's window followed, when some targets were judged over another
// (read once while the others were read twice), by those windows and how many targets each:
// "10s (lifetime for 1 target: see below)". The list of errors names the targets.
func reportWindow(r view.Report) string {
	var others []string
	n := map[string]int{}
	for _, e := range r.Errors {
		if e.Window == "" || e.Window == r.Window {
			continue
		}
		if n[e.Window] == 0 {
			others = append(others, e.Window)
		}
		n[e.Window]++
	}
	if len(others) == 0 {
		return r.Window
	}
	for i, w := range others {
		target := "targets"
		if n[w] == 1 {
			target = "target"
		}
		others[i] = fmt.Sprintf("%s for %d %s", w, n[w], target)
	}
	return r.Window + " (" + strings.Join(others, ", ") + ": see below)"
}

// partlyRead reports whether some target with an error was still judged (it gave one sample).
func partlyRead(r view.Report) bool {
	for _, e := range r.Errors {
		if e.Window != "" {
			return true
		}
	}
	return false
}

// errorsTitle heads the list of target errors.
func errorsTitle(r view.Report) string {
	if partlyRead(r) {
		return "Targets that could not be read, or only once"
	}
	return "Targets that could not be read"
}

// judged says over which window a target with an error was still judged ("judged over its
// lifetime"), or "" when it gave no figures.
func judged(e view.TargetError) string {
	switch e.Window {
	case "":
		return ""
	case view.Lifetime:
		return "judged over its lifetime"
	}
	return "judged over " + e.Window
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// age formats an age given in seconds: 3d, 4h5m, 6m7s, 8s, >292y; "-" when unknown.
func age(secs float64) string {
	switch {
	case math.IsNaN(secs):
		return "-"
	case secs >= maxSeconds:
		return beyond
	case secs <= -maxSeconds:
		return "<-292y"
	}
	d := time.Duration(secs) * time.Second
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	case d >= time.Hour:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// triple writes p50 / p90 / p99, each a bound (">= 100ms") when only known to be that or more.
func triple(a *float64, aMin bool, b *float64, bMin bool, c *float64, cMin bool) string {
	return Quantile(a, aMin) + " / " + Quantile(b, bMin) + " / " + Quantile(c, cMin)
}

func results(m map[string]float64) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %.0f", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func byteSize(v *float64) string {
	if v == nil {
		return "-"
	}
	switch b := *v; {
	case b >= 1<<30:
		return fmt.Sprintf("%.1fGi", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0fMi", b/(1<<20))
	default:
		return fmt.Sprintf("%.0fKi", b/(1<<10))
	}
}

func cores(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0fm", *v*1000)
}

func percent(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// saidBy is the code of the finding of check on target and queue, "" when there is none: a
// row it judges is said by it.
func saidBy(r view.Report, target, queue, check string) string {
	for _, f := range r.Findings {
		if f.Target == target && f.Queue == queue && f.Check == check {
			return f.Code
		}
	}
	return ""
}

// saidQuiet is the line of a section whose notable rows the findings say, codes: "1 queue
// short of workers: CD217 in the findings", then "; N more RESTWHAT" for the other rows.
func saidQuiet(codes []string, what string, more int, restWhat string) string {
	q := fmt.Sprintf("%s %s: %s in the findings", printable.Plural(len(codes), "queue"), what, strings.Join(slices.Compact(slices.Sorted(slices.Values(codes))), ", "))
	if more > 0 {
		q += fmt.Sprintf("; %d more %s", more, restWhat)
	}
	return q
}

// findingOn reports whether the report has a finding of one of checks on target.
func findingOn(r view.Report, target string, checks ...string) bool {
	for _, f := range r.Findings {
		if f.Target == target && slices.Contains(checks, f.Check) {
			return true
		}
	}
	return false
}
