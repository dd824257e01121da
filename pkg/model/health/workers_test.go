package health

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A page that claims more workers than any process runs has its counts read as unknown, and
// says so; a real count is kept.
func TestImplausibleWorkersAreUnknown(t *testing.T) {
	page := func(workers string) string {
		return `# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller="big"} ` + workers + `
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller="big"} ` + workers + `
# TYPE workqueue_depth gauge
workqueue_depth{name="big",controller="big"} 900
`
	}
	for _, tt := range []struct {
		workers string
		want    float64
	}{{"1e11", math.NaN()}, {"10001", math.NaN()}, {"10000", 10000}, {"4", 4}} {
		s := loadText(t, page(tt.workers))
		qs := Queues("t", nil, s, time.Duration(0))
		if len(qs) != 1 {
			t.Fatalf("%s: %d queues", tt.workers, len(qs))
		}
		got := qs[0].MaxWorkers
		if !(got == tt.want || math.IsNaN(got) && math.IsNaN(tt.want)) || !(qs[0].ActiveWorkers == tt.want || math.IsNaN(qs[0].ActiveWorkers) && math.IsNaN(tt.want)) {
			t.Errorf("%s workers read as %v of %v, want %v", tt.workers, qs[0].ActiveWorkers, got, tt.want)
		}
		w := ImplausibleWorkers(s)
		if math.IsNaN(tt.want) != (len(w) == 1 && strings.Contains(w[0], "controller big claims")) {
			t.Errorf("%s workers: warnings %q", tt.workers, w)
		}
	}
}
