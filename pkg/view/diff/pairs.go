package diff

import (
	"sort"
)

// maxCandidates bounds the targets of the after side kept as possible matches of one target
// of the before side, the closest first: thousands of targets without a workload that share
// their names would otherwise keep a pair for every two of them.
const maxCandidates = 8

// maxScored bounds the work of matching targets without a workload: the (before target,
// after target, shared name) triples counted. Past it, the before targets left are not matched
// by their names and keep their own (as a target of one side only does). Two reports of
// 2,000 such targets with the same three names each take 12 million.
const maxScored = 1 << 24

// pair is a before and an after target that may be the same controller, and how close.
type pair struct {
	b, a  string
	score float64
}

// closePairs are the pairs of loneB and loneA targets that share at least minShared of their
// names (qb and qa), the closest first; of equals, the pair of one name, then in name order.
// Each before target keeps its maxCandidates closest. Only the after targets that share a
// name with a before target are scored, found through an index of the names.
func closePairs(loneB, loneA []string, qb, qa map[string]map[string]bool) []pair {
	byName := map[string][]int32{} // name -> the loneA targets that have it
	for i, a := range loneA {
		for n := range qa[a] {
			byName[n] = append(byName[n], int32(i))
		}
	}
	both := make([]int32, len(loneA)) // names shared with the before target being scored
	var touched []int32
	var out []pair
	work := 0
	for _, b := range loneB {
		names := qb[b]
		for n := range names {
			work += len(byName[n])
		}
		if work > maxScored {
			break
		}
		touched = touched[:0]
		for n := range names {
			for _, i := range byName[n] {
				if both[i] == 0 {
					touched = append(touched, i)
				}
				both[i]++
			}
		}
		closest := make([]pair, 0, maxCandidates)
		for _, i := range touched {
			a := loneA[i]
			all := len(names) + len(qa[a]) - int(both[i])
			if s := float64(both[i]) / float64(all); s >= minShared {
				closest = keepClosest(closest, pair{b, a, s})
			}
			both[i] = 0
		}
		out = append(out, closest...)
	}
	sortPairs(out)
	return out
}

// keepClosest puts p among the closest, which are in closer order and hold at most
// maxCandidates, when it is closer than the last of them.
func keepClosest(closest []pair, p pair) []pair {
	at := sort.Search(len(closest), func(i int) bool { return closer(p, closest[i]) })
	if at == maxCandidates {
		return closest
	}
	if len(closest) < maxCandidates {
		closest = append(closest, pair{})
	}
	copy(closest[at+1:], closest[at:])
	closest[at] = p
	return closest
}

// sortPairs puts the closest pairs first; of equals, the pair of one name, then in name order.
func sortPairs(pairs []pair) {
	sort.SliceStable(pairs, func(i, j int) bool { return closer(pairs[i], pairs[j]) })
}

// closer says whether x comes before y: the closer pair, of equals the pair of one name, then
// in name order.
func closer(x, y pair) bool {
	if x.score != y.score {
		return x.score > y.score
	}
	if sx, sy := x.b == x.a, y.b == y.a; sx != sy {
		return sx
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}
