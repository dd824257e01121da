// Package promsource reads controllers' metrics from a server that speaks the Prometheus HTTP
// API instead of scraping them: Open finds the scrape targets from the labels of the series
// (cluster, namespace, pod, job, instance) and Read rebuilds, per target, the two samples a
// scrape at the ends of a window would have given, as metric families, so the model, the
// findings and every output work unchanged. Counters are exact about resets inside the window:
// the first sample of a series that was reset is rebuilt as its value at the end minus its
// increase over the window, computed from the raw samples. Histograms are read from their
// classic buckets, or, where the server holds a series as a native histogram only, from that,
// converted to cumulative buckets at its boundaries (see classicHistogram). A run asks a fixed
// number of queries whatever the number of targets or clusters. History, apart, gives a live
// view the recent depth and adds/s of the queues of targets it reads itself.
package promsource

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Config says what to read and when.
type Config struct {
	Client *Client
	// At is the end of the window; Window its length.
	At     time.Time
	Window time.Duration
	// ClusterLabel names the label that tells clusters apart; Clusters, when set, narrows to
	// those values.
	ClusterLabel string
	Clusters     []string
	// Namespace narrows to series with this namespace label ("" for all).
	Namespace string
	// Log, when set, is told what the queries cost (-v).
	Log func(string)
	// MaxSourceResolution is the coarsest resolution the client lets the server answer from
	// (the client sends it); the inventory says it.
	MaxSourceResolution time.Duration
	// AutoResolution says that MaxSourceResolution was chosen from the window (auto): where
	// the window is old enough for the data of that resolution to be deleted and nothing is
	// found there, Open asks once more allowing the next coarser one (see coarser). Now is
	// when the run began (zero: the clock's now).
	AutoResolution bool
	Now            time.Time
}

// DefaultWindow is the window read from a server: long enough for a few scrapes at the usual
// 15 to 60 s intervals, short enough to be about the moment asked for.
const DefaultWindow = 10 * time.Minute

// lookback is how far before the window's start a sample still counts as the series' value
// there (PromQL's default lookback delta): the raw samples of a reset series are read over
// the window and this much before it.
const lookback = 5 * time.Minute

// Source is a Prometheus server as a source.Source.
type Source struct {
	cfg     Config
	sel     selector
	inv     *source.Inventory
	targets []target.Target
	jobs    []string
	// partial is what the answers said of stores that did not answer.
	partial partial
	// openNote is what Open said of the clusters partial answers lack.
	openNote string
	// stores caches whether the server may answer from downsampled data (mayDownsample).
	stores *bool
	// coarsened, when set, is the resolution first asked, at which nothing was found: the
	// window is read at MaxSourceResolution, the next coarser.
	coarsened *time.Duration
	// sent are the reading's queries Prefetch sent while Open looked for the targets.
	sent *ahead
	// atRefused says that the server refused PromQL's @ modifier: the reading narrows to
	// the jobs Open found by their names (see jobs).
	atRefused bool
}

var _ source.Source = (*Source)(nil)

// New returns the source cfg describes.
func New(cfg Config) *Source {
	if cfg.ClusterLabel == "" {
		cfg.ClusterLabel = "cluster"
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	return &Source{cfg: cfg, sel: selector{clusterLabel: cfg.ClusterLabel, clusters: cfg.Clusters, namespace: cfg.Namespace}}
}

// SetLog sets where the cost of the queries is told (nil: nowhere).
func (s *Source) SetLog(log func(string)) { s.cfg.Log = log }

// Prefetch sends the queries that read the whole fleet with o's families now, before Open
// has found the targets: they narrow themselves to the jobs the targets are found in, so the
// server answers them while it answers the targets query, and Read awaits those answers
// instead of asking again. A Read that asks otherwise (another resolution, cluster by
// cluster) or an Open that fails leaves them unread, and they are cancelled.
func (s *Source) Prefetch(ctx context.Context, o source.Options) {
	if s.inv != nil || s.sent != nil {
		return
	}
	names, fragment, _ := wantedFamilies(o.Keep)
	s.sent = sendAhead(ctx, s.cfg.Client, s.readingQueries(nameRegex(names, fragment), scope{sel: s.sel})...)
}

// Open finds the scrape targets that export controller families at the window's end.
func (s *Source) Open(ctx context.Context) (inv *source.Inventory, err error) {
	if s.inv != nil {
		return s.inv, nil
	}
	defer func() {
		if err != nil {
			s.sent.drop()
			s.sent = nil
		}
	}()
	q := targetsQuery(s.sel)
	resp, found, err := s.findTargets(ctx, q)
	if err != nil {
		return nil, err
	}
	tried, coarsest := "", s.cfg.MaxSourceResolution
	if len(found.targets) == 0 {
		if next, ok := s.coarser(ctx); ok {
			// Nothing in the data of the resolution the window chose, and it is old enough
			// for that data to be deleted: ask once more allowing the next coarser.
			first := s.cfg.MaxSourceResolution
			s.cfg.Client.SetMaxSourceResolution(ResolutionParam(next))
			again, foundAgain, err := s.findTargets(ctx, q)
			if err != nil {
				return nil, err
			}
			if len(foundAgain.targets) > 0 {
				resp, found, s.cfg.MaxSourceResolution, s.coarsened = again, foundAgain, next, &first
			} else {
				s.cfg.Client.SetMaxSourceResolution(ResolutionParam(first))
				tried = fmt.Sprintf("; asked with max_source_resolution=%s and again with %s", ResolutionParam(first), ResolutionParam(next))
				coarsest = next
			}
		}
	}
	inv = &source.Inventory{Warnings: append(s.answered(resp), found.skipped...)}
	s.targets = found.targets
	if len(s.targets) == 0 {
		partly := ""
		if resp.Partial && len(resp.Warnings) > 0 {
			partly = " in an answer it gave partially (" + resp.Warnings[0] + ")"
		}
		return nil, fmt.Errorf("Prometheus at %s holds no controller series at %s%s (looked for %s%s%s): check --at, -n, --clusters and --cluster-label%s",
			s.cfg.Client.Name(), s.cfg.At.UTC().Format(time.RFC3339), partly, strings.Join(markers, ", "), s.scopeWords(), tried, s.coarserHint(ctx, coarsest))
	}
	s.lacking(resp, s.clustersIn(resp), s.cfg.Clusters)
	sort.Slice(s.targets, func(i, j int) bool { return s.targets[i].ID() < s.targets[j].ID() })
	s.jobs = found.jobs
	inv.Warnings = append(inv.Warnings, s.clusterWarnings(ctx)...)
	if s.openNote = s.missingNote(); s.openNote != "" {
		inv.Warnings = append(inv.Warnings, s.openNote)
	}
	inv.Partial = s.report()
	s.sayResolution(ctx, inv)
	inv.Targets = s.targets
	s.inv = inv
	return inv, nil
}

// found are the targets an answer to the targets query names, the jobs they belong to, and
// what was said of the series skipped.
type found struct {
	targets []target.Target
	jobs    []string
	skipped []string
}

// findTargets asks for the targets at the window's end.
func (s *Source) findTargets(ctx context.Context, q string) (*Response, found, error) {
	resp, err := s.cfg.Client.Query(ctx, q, s.cfg.At)
	if err != nil {
		if late := source.Late(ctx, "before Prometheus at "+s.cfg.Client.Name()+" answered the query for the targets", "nothing", narrower); late != nil {
			return nil, found{}, late
		}
		return nil, found{}, err
	}
	var f found
	seen := map[string]bool{}
	jobs := map[string]bool{}
	for _, sr := range resp.Series {
		t := s.target(sr.Labels)
		if t.Job == "" || t.Instance == "" {
			f.skipped = append(f.skipped, fmt.Sprintf("Prometheus at %s: series without job or instance label skipped (%v)", s.cfg.Client.Name(), sr.Labels))
			continue
		}
		if seen[t.ID()] {
			continue
		}
		seen[t.ID()] = true
		jobs[t.Job] = true
		f.targets = append(f.targets, t)
	}
	f.jobs = sortedKeys(jobs)
	return resp, f, nil
}

// scopeWords says which matchers narrowed the search.
func (s *Source) scopeWords() string {
	var w []string
	if s.cfg.Namespace != "" {
		w = append(w, "namespace="+s.cfg.Namespace)
	}
	if len(s.cfg.Clusters) > 0 {
		w = append(w, s.cfg.ClusterLabel+" in "+strings.Join(s.cfg.Clusters, ","))
	}
	if len(w) == 0 {
		return ""
	}
	return " with " + strings.Join(w, " and ")
}

// target is the scrape target a series' labels name.
func (s *Source) target(l map[string]string) target.Target {
	t := target.Target{Kind: target.KindSeries, Cluster: l[s.cfg.ClusterLabel], Namespace: l["namespace"], Name: l["pod"],
		Job: l["job"], Instance: l["instance"], Ready: true, Via: target.ViaPrometheus,
		Reason: "series of job " + l["job"] + " in Prometheus at " + s.cfg.Client.Name()}
	if _, port, err := net.SplitHostPort(t.Instance); err == nil {
		if p, err := strconv.ParseInt(port, 10, 32); err == nil {
			t.Port = int32(p)
		}
	}
	return t
}

// key is the identity of a target's series.
func (s *Source) key(l map[string]string) string {
	return targetID(l[s.cfg.ClusterLabel], l["namespace"], l["pod"], l["job"], l["instance"])
}

// targetID joins the values of the target labels, in targetLabels' order, each ended by \xff.
func targetID(c, ns, pod, job, inst string) string {
	return string(appendTargetID(make([]byte, 0, len(c)+len(ns)+len(pod)+len(job)+len(inst)+5), c, ns, pod, job, inst))
}

// appendTargetID appends targetID's bytes to b.
func appendTargetID(b []byte, c, ns, pod, job, inst string) []byte {
	for _, v := range [...]string{c, ns, pod, job, inst} {
		b = append(append(b, v...), '\xff')
	}
	return b
}

// targetKey is the key of a target's series.
func (s *Source) targetKey(t target.Target) string {
	return targetID(t.Cluster, t.Namespace, t.Name, t.Job, t.Instance)
}

// Read rebuilds the two samples of every target at the window's ends.
func (s *Source) Read(ctx context.Context, o source.Options) []source.Result {
	if s.inv == nil {
		return nil
	}
	results, notes, err := s.read(ctx, o, scope{sel: s.sel, targets: s.targets, jobs: s.jobs})
	s.sent.drop()
	s.sent = nil
	if late := s.late(ctx, err, s.targets); late != nil {
		err = late
	}
	if err != nil && ctx.Err() == nil && len(clustersOf(s.targets)) > 1 {
		// One answer for the whole fleet failed (too many series, a timeout, a store down):
		// ask cluster by cluster, so that one cluster's failure stays its own.
		results, notes = s.readByCluster(ctx, o, err)
		err = nil
	}
	if s.cfg.Log != nil {
		st := s.cfg.Client.Stats()
		s.cfg.Log(fmt.Sprintf("Prometheus at %s: %d queries, %d series, %d bytes", s.cfg.Client.Name(), st.Queries, st.Series, st.Bytes))
	}
	if err != nil {
		results = make([]source.Result, len(s.targets))
		for i, t := range s.targets {
			results[i] = source.Result{Target: t, Err: err}
		}
	}
	if n := s.missingNote(); n != "" && n != s.openNote {
		notes = append(notes, n)
	}
	notes = unsaid(notes, s.inv.Warnings)
	s.inv.Partial = s.report()
	if len(results) > 0 {
		results[0].Notes = append(results[0].Notes, notes...)
	}
	if o.Done != nil {
		for range results {
			o.Done()
		}
	}
	return results
}

// wantedFamilies are the families to ask for: those the model and recognition read, narrowed
// by keep.
func wantedFamilies(keep func(string) bool) (names []string, fragment string, wanted func(string) bool) {
	all, frag := health.WantedFamilies()
	all = append(all, knobs.Families()...)
	if keep == nil {
		keep = func(string) bool { return true }
	}
	for _, n := range all {
		if keep(n) {
			names = append(names, n)
		}
	}
	if keep(frag) {
		fragment = frag
	}
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return names, fragment, func(f string) bool { return set[f] || fragment != "" && strings.Contains(f, fragment) }
}

// scope is what one reading covers: the whole fleet, or one cluster of it.
type scope struct {
	sel     selector
	targets []target.Target
	jobs    []string
}

// readingQueries are the instant queries a reading of sc asks first, for the families nameRe
// matches: the families at the window's end and at its start, and the restarts.
func (s *Source) readingQueries(nameRe string, sc scope) []instant {
	end, start := s.cfg.At, s.cfg.At.Add(-s.cfg.Window)
	j := jobs{byName: s.atRefused, names: sc.jobs, end: end}
	families := familiesQuery(sc.sel, nameRe, j)
	return []instant{{families, end}, {families, start}, {restartsQuery(sc.sel, s.readRange(), j), end}}
}

// refusesAt says whether err is the server refusing PromQL's @ modifier (Prometheus before
// 2.33 unless enabled, and servers built on it).
func refusesAt(err error) bool {
	var api *APIError
	return errors.As(err, &api) && strings.Contains(api.Message, "@ modifier")
}

// readRange is the range over which the raw samples of a reset series are read: the window
// and the lookback before it.
func (s *Source) readRange() string { return promDuration((s.cfg.Window + lookback).Milliseconds()) }

func (s *Source) read(ctx context.Context, o source.Options, sc scope) ([]source.Result, []string, error) {
	names, fragment, wanted := wantedFamilies(o.Keep)
	nameRe := nameRegex(names, fragment)
	end, start := s.cfg.At, s.cfg.At.Add(-s.cfg.Window)
	var notes []string
	rng := s.readRange()
	answers, err := queryTogether(ctx, s.cfg.Client, s.sent, s.readingQueries(nameRe, sc)...)
	if err != nil && !s.atRefused && refusesAt(err) {
		// Narrow by the jobs Open found instead, from now on.
		s.atRefused = true
		if s.cfg.Log != nil {
			s.cfg.Log(fmt.Sprintf("%v: the server refuses PromQL's @ modifier; the reading is asked again, narrowed by the jobs of the targets found", err))
		}
		answers, err = queryTogether(ctx, s.cfg.Client, nil, s.readingQueries(nameRe, sc)...)
	}
	if err != nil {
		return nil, nil, err
	}
	atEnd, atStart, restarts := answers[0], answers[1], answers[2]
	notes = append(notes, s.answered(atEnd)...)
	notes = append(notes, s.answered(atStart)...)
	atEnd.Series, atStart.Series = instants(atEnd.Series), instants(atStart.Series)
	// A partial answer at the window's end lacks the clusters expected there (found by Open,
	// asked for, or present at the start); one at its start, those present at the end.
	inEnd, inStart := s.clustersIn(atEnd), s.clustersIn(atStart)
	gone := partialGaps{
		end:   s.lacking(atEnd, inEnd, clustersOf(sc.targets), sortedKeys(inStart), sc.sel.clusters),
		start: map[string]string{},
	}
	if atStart.Partial && len(atStart.Warnings) > 0 {
		for c := range inEnd {
			if !inStart[c] {
				gone.start[c] = atStart.Warnings[0]
			}
		}
	}
	var keys answerKeys
	keys.endTarget, keys.startTarget = s.targetKeys(atEnd.Series), s.targetKeys(atStart.Series)
	reps := s.chooseReplicas(atEnd.Series, atStart.Series, keys.endTarget, keys.startTarget)
	atEnd.Series, keys.endTarget = reps.keep(s, atEnd.Series, keys.endTarget)
	atStart.Series, keys.startTarget = reps.keep(s, atStart.Series, keys.startTarget)
	keys.end, keys.start = seriesKeys(atEnd.Series), seriesKeys(atStart.Series)
	if reps.deduplicated > 0 && s.cfg.Log != nil {
		s.cfg.Log(fmt.Sprintf("Prometheus at %s: %d targets scraped by several replicas (labels %s): each read from one", s.cfg.Client.Name(),
			reps.deduplicated, strings.Join(reps.labels, ", ")))
	}
	notes = append(notes, s.answered(restarts)...)
	// Reset targets: those whose process restarted, and those where a counter went down
	// between the window's ends (a process that does not say when it started).
	reset := map[string]bool{}
	for _, sr := range restarts.Series {
		reset[s.key(sr.Labels)] = true
	}
	startValues := map[string]float64{}
	startCounts := map[string]float64{} // of native histograms
	for i, sr := range atStart.Series {
		startValues[keys.start[i]] = sr.Points[0].V
		if h := sr.Points[0].H; h != nil {
			startCounts[keys.start[i]] = h.Count
		}
	}
	for i, sr := range atEnd.Series {
		if v, ok := startValues[keys.end[i]]; ok && counterLike(sr.Labels["__name__"]) && sr.Points[0].V < v {
			reset[keys.endTarget[i]] = true
		}
		if c, ok := startCounts[keys.end[i]]; ok && sr.Points[0].H != nil && sr.Points[0].H.Count < c {
			reset[keys.endTarget[i]] = true
		}
	}
	increases := map[string]float64{}
	nativeStarts := map[string]nativeStart{}
	if len(reset) > 0 {
		var instances []string
		seen := map[string]bool{}
		for _, t := range sc.targets {
			if reset[s.targetKey(t)] && !seen[t.Instance] {
				seen[t.Instance] = true
				instances = append(instances, t.Instance)
			}
		}
		endHists := map[string]*Histogram{}
		nativeNames := map[string]bool{}
		for i, sr := range atEnd.Series {
			if h := sr.Points[0].H; h != nil && reset[keys.endTarget[i]] {
				endHists[keys.end[i]] = h
				nativeNames[sr.Labels["__name__"]] = true
			}
		}
		raw, err := s.cfg.Client.QueryMatrix(ctx, rawQuery(sc.sel, nameRe, sortedKeys(nativeNames), sc.jobs, instances, rng), end)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, s.answered(raw)...)
		rawSeries, _ := reps.keep(s, raw.Series, nil)
		for _, sr := range rawSeries {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			if !reset[s.key(sr.Labels)] {
				continue
			}
			if h := endHists[seriesKey(sr)]; h != nil {
				if ns, ok := nativeIncrease(sr.Points, start, h); ok {
					nativeStarts[seriesKey(sr)] = ns
				}
				continue
			}
			if inc, ok := increase(sr.Points, start); ok {
				increases[seriesKey(sr)] = inc
			}
		}
	}
	results, err := s.samples(ctx, sc.targets, atEnd, atStart, keys, increases, nativeStarts, wanted, start, end, gone)
	if err != nil {
		return nil, nil, err
	}
	return results, dedupe(notes), nil
}

// samples groups the series by target and builds each target's two samples.
// It stops, with ctx's error, when ctx ends.
func (s *Source) samples(ctx context.Context, targets []target.Target, atEnd, atStart *Response, keys answerKeys, increases map[string]float64,
	nativeStarts map[string]nativeStart, wanted func(string) bool, start, end time.Time, gone partialGaps) ([]source.Result, error) {
	endValues := map[string]float64{}
	// Native histograms are read at the boundaries exact at both ends of the window.
	ends := map[string][2]*Histogram{}
	for i, sr := range atEnd.Series {
		sk := keys.end[i]
		endValues[sk] = sr.Points[0].V
		if h := sr.Points[0].H; h != nil {
			ends[sk] = [2]*Histogram{nil, h}
		}
	}
	for i, sr := range atStart.Series {
		if h := sr.Points[0].H; h != nil {
			sk := keys.start[i]
			ends[sk] = [2]*Histogram{h, ends[sk][1]}
		}
	}
	strip := func(l map[string]string, sk string, p Point, v float64, atStart bool) series {
		sr := s.strip(l, v)
		if p.H == nil {
			return sr
		}
		if ns, ok := nativeStarts[sk]; ok {
			// Reset within the window: its first sample is what keeps the growth exact.
			sr.hist, sr.bounds = p.H, ns.bounds
			if atStart {
				sr.hist = ns.hist
			}
			return sr
		}
		e := ends[sk]
		sr.hist, sr.bounds = p.H, nativeBounds(e[0], e[1])
		return sr
	}
	before := map[string][]series{}
	after := map[string][]series{}
	for i, sr := range atEnd.Series {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := keys.endTarget[i]
		after[k] = append(after[k], strip(sr.Labels, keys.end[i], sr.Points[0], sr.Points[0].V, false))
	}
	for i, sr := range atStart.Series {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, sk := keys.startTarget[i], keys.start[i]
		v := sr.Points[0].V
		if counterLike(sr.Labels["__name__"]) {
			if inc, ok := increases[sk]; ok {
				if e, ok := endValues[sk]; ok {
					v = e - inc // reset within the window: its first sample is what keeps the increase exact
				}
			}
		}
		before[k] = append(before[k], strip(sr.Labels, sk, sr.Points[0], v, true))
	}
	// A series reset within the window and absent at its start (its first raw sample came
	// after the start) stays absent, as it would be from a scrape at the start.
	out := make([]source.Result, 0, len(targets))
	// The families of each target's samples are built apart, spread over the processors.
	type build struct {
		result        int
		before, after []series
	}
	var builds []build
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := s.targetKey(t)
		r := source.Result{Target: t}
		if len(after[k]) == 0 {
			if why, ok := gone.end[t.Cluster]; ok {
				r.Err = fmt.Errorf("cluster %s: Prometheus answered partially, without this cluster's series at the window's end %s (%s)",
					t.Cluster, end.UTC().Format(time.RFC3339), why)
			} else {
				r.Err = fmt.Errorf("no series at the window's end %s (the target stopped being scraped)", end.UTC().Format(time.RFC3339))
			}
			out = append(out, r)
			continue
		}
		if len(before[k]) > 0 {
			r.Window, r.ResetsCounted = end.Sub(start), true
		} else if why, ok := gone.start[t.Cluster]; ok {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: no series at the window's start %s, where Prometheus answered partially without cluster %s (%s): judged over its lifetime",
				t.ID(), start.UTC().Format(time.RFC3339), t.Cluster, why))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: no series at the window's start %s (scraped only since): judged over its lifetime",
				t.ID(), start.UTC().Format(time.RFC3339)))
		}
		builds = append(builds, build{result: len(out), before: before[k], after: after[k]})
		out = append(out, r)
	}
	spread(len(builds), func(lo, hi int) {
		for _, b := range builds[lo:hi] {
			if ctx.Err() != nil {
				return
			}
			r := &out[b.result]
			if len(b.before) > 0 {
				r.Samples = append(r.Samples, source.Sample{Families: families(b.before, wanted), Time: start})
			}
			r.Samples = append(r.Samples, source.Sample{Families: families(b.after, wanted), Time: end})
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// narrower is what to do, besides raising --deadline, when a server's answers come too late.
const narrower = "or narrow the query with -n or --clusters"

// late is the error of a reading of targets that failed with err because the run's deadline
// ended ctx, saying what was read by then: the targets, not their series; nil otherwise.
func (s *Source) late(ctx context.Context, err error, targets []target.Target) error {
	if err == nil {
		return nil
	}
	return source.Late(ctx, "before the series were read and converted",
		printable.Plural(len(targets), "target")+" found at "+s.cfg.At.UTC().Format(time.RFC3339)+", none of their series", narrower)
}

// strip removes the name and the target labels from a series' labels, keeping its own. It
// removes them from l itself (a copy per series cost as much as the rest of the reading):
// the answer's labels are not read after (samples takes their keys first).
func (s *Source) strip(l map[string]string, v float64) series {
	name := l["__name__"]
	delete(l, "__name__")
	for _, n := range targetLabels(s.cfg.ClusterLabel) {
		delete(l, n)
	}
	return series{name: name, labels: l, value: v}
}

// seriesKey is a series' identity: all its labels, name included. The decoder built it when
// the answer gave the labels in order.
func seriesKey(s Series) string {
	if s.Key != "" {
		return s.Key
	}
	return labelKey(s.Labels)
}

// answerKeys are the seriesKey and the target key (Source.key) of every series of the answers
// at the window's end and start, in their order: built once, read several times.
type answerKeys struct{ end, start, endTarget, startTarget []string }

// targetKeys are the target keys of series (Source.key), one string per target: its
// series are many.
func (s *Source) targetKeys(ss []Series) []string {
	out := make([]string, len(ss))
	seen := map[string]string{}
	var b []byte
	for i, sr := range ss {
		l := sr.Labels
		b = appendTargetID(b[:0], l[s.cfg.ClusterLabel], l["namespace"], l["pod"], l["job"], l["instance"])
		k, ok := seen[string(b)]
		if !ok {
			k = string(b)
			seen[k] = k
		}
		out[i] = k
	}
	return out
}

func seriesKeys(ss []Series) []string {
	out := make([]string, len(ss))
	spread(len(ss), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = seriesKey(ss[i])
		}
	})
	return out
}

// increase is a counter's growth from its last sample at or before start to its last sample,
// a drop counting as a reset (the value after it is what grew since), as PromQL reads resets
// but without extrapolation: what a scrape at each end would have shown. ok is false when the
// series has no sample at or before start.
func increase(points []Point, start time.Time) (float64, bool) {
	first := -1
	for i, p := range points {
		if !p.T.After(start) {
			first = i
		}
	}
	if first < 0 {
		return 0, false
	}
	inc := 0.0
	for i := first + 1; i < len(points); i++ {
		if d := points[i].V - points[i-1].V; d >= 0 {
			inc += d
		} else {
			inc += points[i].V
		}
	}
	return inc, true
}

// instants keeps the series of an instant vector that have their one sample: the client
// refuses an answer of another kind, and a series without its sample is left out rather than
// read.
func instants(ss []Series) []Series {
	out := ss[:0]
	for _, s := range ss {
		if len(s.Points) == 1 {
			out = append(out, s)
		}
	}
	return out
}

// unsaid are the notes not already among said (a warning Open passed on, repeated by the
// answers of the reading).
func unsaid(notes, said []string) []string {
	out := notes[:0]
	for _, n := range notes {
		if !slices.Contains(said, n) {
			out = append(out, n)
		}
	}
	return out
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
