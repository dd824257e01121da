package health

import "slices"

// Reduction says what the model reads of a family it reads only in part: the labels its
// figures are keyed by (it sums the series over every other label), and the series it leaves
// out, by label value (a label a series lacks has the value ""). A parser may read such a
// family reduced: the series left out dropped before they are built, the others summed over
// the labels not named. The model's figures are then exactly those of the whole family.
type Reduction struct {
	Labels []string
	Drop   map[string][]string
}

// Reduced lists the families the model reads only in part, by name, with what it reads of
// them. Each call returns a new map.
func Reduced() map[string]Reduction {
	return map[string]Reduction{
		apiRequestDuration: {
			Labels: slices.Clone(apiRequestLabels),
			Drop:   map[string][]string{"verb": slices.Clone(longRunningVerbs), "resource": {""}},
		},
	}
}
