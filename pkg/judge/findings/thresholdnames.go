package findings

import "strings"

// nearestName is the threshold name a mistyped name most likely meant (see Nearest).
func nearestName(name string) string {
	return Nearest(name, ThresholdNames())
}

// Nearest is the candidate a mistyped name most likely meant: the same but for case, or one a
// few edits away (a third of its length at most); "" when none is that close.
func Nearest(name string, candidates []string) string {
	typed := strings.ToLower(name)
	best, bestDist := "", len(typed)/3+1
	for _, n := range candidates {
		d := editDistance(typed, strings.ToLower(n))
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
