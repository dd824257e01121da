package findings

import (
	"fmt"
	"strings"
	"time"
)

// maxCited bounds the objects a finding cites from evidence outside the metrics (Warning
// events, the controller's log); the rest are counted.
const maxCited = 3

// cited is one object a finding names from such evidence.
type cited struct {
	// Short names it in a sentence ("shop/app-config (x3)"), Value in its evidence line
	// ("shop/app-config x3"), and Label is that line's name.
	Short, Value, Label string
	// Detail is the error or message, quoted after the value; Last when it was last seen.
	Detail string
	Last   time.Time
}

// namedIn says which objects the evidence names: prefix and the first maxCited, then how many more.
func namedIn(prefix string, cs []cited) string {
	var parts []string
	for i, c := range cs {
		if i == maxCited {
			parts = append(parts, fmt.Sprintf("%d more", len(cs)-i))
			break
		}
		parts = append(parts, c.Short)
	}
	return prefix + strings.Join(parts, ", ")
}

// citedEvidence is one evidence line per object, newest first (value, when last seen before
// the last sample, the detail), then one line named more saying how many more (moreOf).
func citedEvidence(t Target, cs []cited, more string, moreOf func(n int) string) []Evidence {
	var evs []Evidence
	for i, c := range cs {
		if i == maxCited {
			evs = append(evs, Evidence{Name: more, Value: moreOf(len(cs) - i)})
			break
		}
		v := c.Value
		if t.Cur != nil && !t.Cur.Time.IsZero() && !c.Last.IsZero() {
			v += ", last " + format(max(0, t.Cur.Time.Sub(c.Last).Seconds()), "s") + " before the last sample"
		}
		if c.Detail != "" {
			v += fmt.Sprintf(`: "%s"`, c.Detail)
		}
		evs = append(evs, Evidence{Name: c.Label, Value: v})
	}
	return evs
}
