package promsource

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// partial gathers what the answers of a run said of the stores that did not answer (Thanos
// Query's and Mimir's partial answers, VictoriaMetrics' isPartial), and which clusters they
// lack.
type partial struct {
	warnings []string
	seen     map[string]bool
	// missing maps each cluster the answers lack to the first warning of the answer that
	// lacked it.
	missing map[string]string
	// replicated are the clusters a warning named whose series an answer held all the same.
	replicated map[string]bool
	// clusterIn finds the cluster label's values in a warning; compiled on first use.
	clusterIn *regexp.Regexp
	// untold is set when a partial answer's warnings named no cluster: what it lacks is
	// unknown.
	untold bool
}

// answered passes on an answer's warnings as the run's notes (see warnings), and keeps those
// of a partial answer for the report.
func (s *Source) answered(r *Response) []string {
	for _, w := range r.Warnings {
		if !r.Partial || !PartialWarning(w) {
			continue
		}
		if s.partial.seen == nil {
			s.partial.seen = map[string]bool{}
		}
		if !s.partial.seen[w] {
			s.partial.seen[w] = true
			s.partial.warnings = append(s.partial.warnings, w)
		}
	}
	if r.Partial && len(s.partial.warnings) == 0 {
		// Partial without words of its own (the client always gives some): still said.
		s.partial.warnings = []string{"the server marked its answer partial"}
	}
	return warnings(r)
}

// warnings are an answer's warnings as the run's notes: a partial answer's as "Prometheus
// answered partially: ...", a PromQL annotation as "Prometheus warns: ...".
func warnings(r *Response) []string {
	out := make([]string, 0, len(r.Warnings))
	for _, w := range r.Warnings {
		if r.Partial && PartialWarning(w) {
			out = append(out, "Prometheus answered partially: "+w)
		} else {
			out = append(out, "Prometheus warns: "+w)
		}
	}
	return out
}

// named are the clusters a warning of a partial answer names: Thanos names the store that
// failed by its external labels (`fetch series for {cluster="b", replica="A"} ...`).
func (s *Source) named(w string) []string {
	if s.partial.clusterIn == nil {
		s.partial.clusterIn = regexp.MustCompile(`(?:^|[{,\s])` + regexp.QuoteMeta(s.cfg.ClusterLabel) + `="((?:[^"\\]|\\.)*)"`)
	}
	re := s.partial.clusterIn
	var out []string
	for _, m := range re.FindAllStringSubmatch(w, -1) {
		v, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			v = m[1]
		}
		out = append(out, v)
	}
	return out
}

// lacking records as missing the clusters of expected that a partial answer r holds no series
// of (present: the clusters it holds), and returns them with the reason. A cluster a warning
// names whose series the answer holds all the same had a replica answer for the store that
// did not (an HA pair with one replica down): it is recorded as replicated, not missing. A
// warning that names no cluster leaves what is missing untold.
func (s *Source) lacking(r *Response, present map[string]bool, expected ...[]string) map[string]string {
	if !r.Partial {
		return nil
	}
	why := ""
	var named []string
	for _, w := range r.Warnings {
		if !PartialWarning(w) {
			continue
		}
		if why == "" {
			why = w
		}
		n := s.named(w)
		if len(n) == 0 {
			s.partial.untold = true
		}
		named = append(named, n...)
	}
	if why == "" {
		why = "the server marked its answer partial"
		s.partial.untold = true
	}
	for _, c := range named {
		if c != "" && present[c] {
			if s.partial.replicated == nil {
				s.partial.replicated = map[string]bool{}
			}
			s.partial.replicated[c] = true
		}
	}
	out := map[string]string{}
	for _, cs := range append(expected, named) {
		for _, c := range cs {
			if c == "" || present[c] {
				continue
			}
			out[c] = why
			if s.partial.missing == nil {
				s.partial.missing = map[string]string{}
			}
			if _, ok := s.partial.missing[c]; !ok {
				s.partial.missing[c] = why
			}
		}
	}
	return out
}

// clustersIn are the values of the cluster label of the series of an answer.
func (s *Source) clustersIn(r *Response) map[string]bool {
	out := map[string]bool{}
	for _, sr := range r.Series {
		out[sr.Labels[s.cfg.ClusterLabel]] = true
	}
	return out
}

// report is what the run's answers said of stores that did not answer; nil when every answer
// was whole.
func (s *Source) report() *source.Partial {
	if len(s.partial.warnings) == 0 {
		return nil
	}
	p := &source.Partial{Warnings: append([]string(nil), s.partial.warnings...)}
	for c := range s.partial.missing {
		p.MissingClusters = append(p.MissingClusters, c)
	}
	sort.Strings(p.MissingClusters)
	for c := range s.partial.replicated {
		if _, gone := s.partial.missing[c]; !gone {
			p.ReplicatedClusters = append(p.ReplicatedClusters, c)
		}
	}
	sort.Strings(p.ReplicatedClusters)
	p.Untold = s.partial.untold
	return p
}

// missingNote says which clusters the partial answers lack, for the run's warnings ("" when
// none can be told).
func (s *Source) missingNote() string {
	p := s.report()
	if p == nil {
		return ""
	}
	if p.Whole() {
		return fmt.Sprintf("Prometheus at %s answered partially: the stores of %s %s that did not answer have replicas that did, no series are missing",
			s.cfg.Client.Name(), map[bool]string{true: "cluster", false: "clusters"}[len(p.ReplicatedClusters) == 1], strings.Join(p.ReplicatedClusters, ", "))
	}
	if len(p.MissingClusters) == 0 {
		return fmt.Sprintf("Prometheus at %s answered partially (some of its stores did not answer): series may be missing, which clusters cannot be told", s.cfg.Client.Name())
	}
	return fmt.Sprintf("Prometheus at %s answered partially: no series of %s %s (%s): what is read is not the whole fleet",
		s.cfg.Client.Name(), map[bool]string{true: "cluster", false: "clusters"}[len(p.MissingClusters) == 1], strings.Join(p.MissingClusters, ", "), s.cfg.ClusterLabel)
}

// partialGaps are the clusters partial answers of one reading lack, each with the warning of
// the answer: at the window's end (their targets are not read) and at its start (their
// targets are judged over their lifetime).
type partialGaps struct {
	end, start map[string]string
}
