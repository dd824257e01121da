package logs

import (
	"regexp"
	"strings"
	"sync"
	"time"
)

// waited is client-go's line for a request its rate limiter held back:
// "Waited for 1.19s due to client-side throttling, not priority and fairness, request: GET:...".
var waited = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`Waited for ([0-9][0-9.]*[a-zµ]{1,2}(?:[0-9.]+[a-zµ]{1,2})*) due to client-side throttling`)
})

// throttle counts e when it is a client-side throttling wait: the text above, or newer
// client-go's structured "Waited before sending request" delay="1.19s" reason="client-side
// throttling, ...". The request itself is not kept.
func (p *parser) throttle(e entry) bool {
	var d time.Duration
	switch {
	case e.msg == "Waited before sending request" && strings.Contains(e.field("reason"), "client-side throttling"):
		var err error
		if d, err = time.ParseDuration(e.field("delay")); err != nil {
			return false
		}
	default:
		m := waited().FindStringSubmatch(e.msg)
		if m == nil {
			return false
		}
		var err error
		if d, err = time.ParseDuration(m[1]); err != nil {
			return false
		}
	}
	t := p.log.Throttling
	if t == nil {
		t = &Throttling{}
		p.log.Throttling = t
	}
	t.Count++
	t.LongestSeconds = max(t.LongestSeconds, d.Seconds())
	if e.time.After(t.Last) {
		t.Last = e.time
	}
	return true
}
