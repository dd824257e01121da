package promsource

import (
	"sort"
	"strings"
)

// replicas deduplicates HA pairs where the server did not: two or more Prometheus replicas
// scrape the same targets, and their series differ only in the replica labels (Thanos'
// external label replica, the Prometheus Operator's prometheus_replica). Read as they come,
// every queue would be counted once per replica. Of every target, the series of one replica
// are kept, the same replica at both ends of the window (counters of different replicas are
// scraped at different moments), and the replica labels are dropped from every series.
type replicas struct {
	labels []string
	// chosen is, per target key, the replica whose series are kept.
	chosen map[string]string
	// deduplicated counts the targets read from several replicas.
	deduplicated int
}

// chooseReplicas chooses, for every target of the series at the window's end and start, the
// replica read: the first (by its labels' values) present at both ends, else the first
// present at the end, else the first at the start.
// endKeys and startKeys are the series' target keys (Source.key).
func (s *Source) chooseReplicas(atEnd, atStart []Series, endKeys, startKeys []string) *replicas {
	r := &replicas{labels: s.cfg.Client.ReplicaLabels(), chosen: map[string]string{}}
	if len(r.labels) == 0 {
		return r
	}
	seen := func(ss []Series, keys []string) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for i, sr := range ss {
			k := keys[i]
			if m[k] == nil {
				m[k] = map[string]bool{}
			}
			m[k][r.replica(sr.Labels)] = true
		}
		return m
	}
	ends, starts := seen(atEnd, endKeys), seen(atStart, startKeys)
	for k, at := range ends {
		both := map[string]bool{}
		for id := range at {
			if starts[k][id] {
				both[id] = true
			}
		}
		if len(both) > 0 {
			r.chosen[k] = first(both)
		} else {
			r.chosen[k] = first(at)
		}
		if len(at) > 1 || len(starts[k]) > 1 {
			r.deduplicated++
		}
	}
	for k, at := range starts {
		if _, ok := r.chosen[k]; !ok {
			r.chosen[k] = first(at)
		}
	}
	return r
}

// replica is the identity of the replica a series came from: the values of the replica labels.
func (r *replicas) replica(l map[string]string) string {
	var b strings.Builder
	for _, n := range r.labels {
		b.WriteString(l[n] + "\xff")
	}
	return b.String()
}

// keep returns the series of the chosen replicas (every series of a target not chosen for:
// it has one replica), without their replica labels, and the target keys of those kept;
// keys are the series' target keys (Source.key), nil to compute them.
func (r *replicas) keep(s *Source, ss []Series, keys []string) ([]Series, []string) {
	if len(r.labels) == 0 {
		return ss, keys
	}
	if keys == nil {
		keys = s.targetKeys(ss)
	}
	out, outKeys := ss[:0], keys[:0]
	for i, sr := range ss {
		k := keys[i]
		if id, ok := r.chosen[k]; ok && r.replica(sr.Labels) != id {
			continue
		}
		for _, n := range r.labels {
			if _, ok := sr.Labels[n]; ok {
				delete(sr.Labels, n)
				sr.Key = "" // the key read with the answer names the replica
			}
		}
		out, outKeys = append(out, sr), append(outKeys, k)
	}
	return out, outKeys
}

// first is the smallest of a set of replica identities.
func first(set map[string]bool) string {
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids[0]
}
