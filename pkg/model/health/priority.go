package health

import (
	"sort"
	"strconv"
)

// PriorityOf reads the priority label of controller-runtime's priority queue ("0", "-100"):
// ok is false for a value that is no integer, such as "exceeded_cardinality_limit", which
// controller-runtime uses past 25 distinct priorities.
func PriorityOf(label string) (p int, ok bool) {
	p, err := strconv.Atoi(label)
	return p, err == nil
}

// Priorities returns the priorities of a depth-by-priority map, highest (served first)
// first; values that are no integer come last, by name.
func Priorities[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, aok := PriorityOf(out[i])
		b, bok := PriorityOf(out[j])
		switch {
		case aok && bok:
			return a > b
		case aok != bok:
			return aok
		}
		return out[i] < out[j]
	})
	return out
}
