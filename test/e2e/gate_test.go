//go:build e2e

package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The suite runs in three phases, so that the tests that measure rates and service times
// through the API server see only each other's light load, not the crowd's:
//
//  1. Alone: the tests that need the whole cluster quiet (cluster-wide figures, webhooks and
//     FlowSchemas that slow everyone, a "no warning at all" over the API server) call nothing;
//     Go runs them first, one at a time. A "Runs alone:" comment says why.
//  2. Calm: calm(t) runs these side by side, E2E_CALM at a time (default 3). Each mostly
//     waits on its own operator's writes; together they use about half of 2 cores.
//  3. Crowd: crowd(t) runs everything else, go test's -parallel at a time (default 8), once
//     the last calm test has ended.
//
// Subtests that run side by side call sub(t): as many at once, of all tests, as the crowd.
//
// In each phase the tests known to be long start first (expected), so that a phase ends when
// its longest test does rather than when a long test started last does.

// expected is about how long the long tests take on 2 cores (the rest are under a minute).
var expected = map[string]time.Duration{
	"TestHeadroomPredictsBreakPoint":              330 * time.Second,
	"TestCapacityAdviceRemovesSaturation":         160 * time.Second,
	"TestDiffNamesTheSLOVerdictChange":            150 * time.Second,
	"TestRulesAgreeWithTheReport":                 2 * time.Minute,
	"TestSpecLatencyMatchesObjects":               110 * time.Second,
	"TestCapacityModelAgainstMeasurements":        85 * time.Second,
	"TestCapacityNamesAHotKey":                    70 * time.Second,
	"TestOperatorScenarios":                       4 * time.Minute,
	"TestQueueWaitSLOVerdicts":                    160 * time.Second,
	"TestReportFromPrometheusAgreesWithScrape":    150 * time.Second,
	"TestSecretsNeverShown":                       2 * time.Minute,
	"TestHostilePodDeletedMidScrape":              100 * time.Second,
	"TestFaultAPIServerGone":                      90 * time.Second,
	"TestDiffShowsAScenarioSwitch":                85 * time.Second,
	"TestHostileURL":                              70 * time.Second,
	"TestThanosPartialAnswerNamesMissingCluster":  65 * time.Second,
	"TestReportFromPrometheusThroughServiceProxy": 65 * time.Second,
	"TestReportObjectsNamespaceByNamespace":       65 * time.Second,
	"TestReportGoroutinesOfAStuckWorker":          60 * time.Second,
	"TestThanosDownsampledHistory":                60 * time.Second,
}

// gate holds the phases' slots; set up by setupGate before the tests run.
var gate struct {
	calm, crowd, sub *pool
	// calmLeft counts the calm tests not yet ended; crowd tests wait for it.
	calmLeft sync.WaitGroup
}

// setupGate sizes the phases and lifts go test's own bound on parallel tests (the phases
// bound them instead): with it, crowd tests waiting for the calm phase would hold the slots
// the calm tests' side-by-side cases need. The -parallel the run was given sizes the crowd.
func setupGate() error {
	if !flag.Parsed() {
		flag.Parse()
	}
	crowd := 8
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			crowd, _ = strconv.Atoi(f.Value.String())
		}
	})
	calm := 3
	if v := os.Getenv("E2E_CALM"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("E2E_CALM=%q: want a number of tests, 1 or more", v)
		}
		calm = n
	}
	if crowd < 1 {
		return fmt.Errorf("-parallel %d: want 1 or more", crowd)
	}
	if err := noBareParallel(); err != nil {
		return err
	}
	gate.calm, gate.crowd, gate.sub = newPool("calm", calm), newPool("crowd", crowd), newPool("subtest", crowd)
	return flag.Set("test.parallel", "100000")
}

// noBareParallel refuses a test file that calls t.Parallel itself: with go test's bound lifted,
// such a test would run beside the alone or calm tests, unbounded.
func noBareParallel() error {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		return err
	}
	for _, f := range files {
		if f == "gate_test.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("t.Parallel()")) {
			return fmt.Errorf("%s calls t.Parallel: call crowd(t), calm(t) or, in a subtest, sub(t) (gate_test.go)", f)
		}
	}
	return nil
}

// calm runs t in the calm phase: beside the other calm tests only.
func calm(t *testing.T) {
	// Counted before Parallel: every test has counted itself before any resumes.
	gate.calmLeft.Add(1)
	gate.calm.register()
	t.Parallel()
	gate.calm.acquire(t)
	t.Cleanup(func() {
		gate.calm.release()
		gate.calmLeft.Done()
	})
}

// crowd runs t in the crowd phase, after the calm tests.
func crowd(t *testing.T) {
	gate.crowd.register()
	t.Parallel()
	gate.calmLeft.Wait()
	gate.crowd.acquire(t)
	t.Cleanup(gate.crowd.release)
}

// sub runs a subtest side by side with its siblings, bounded as go test's -parallel bounded
// them before the phases lifted it.
func sub(t *testing.T) {
	t.Parallel()
	gate.sub.acquire(t)
	t.Cleanup(gate.sub.release)
}

// pool hands out a phase's slots, to the waiting test expected to take longest first. The
// tests of a phase resume together; the first slots are handed out once all of them wait, so
// that the longest start first whatever order they resumed in.
type pool struct {
	phase   string
	mu      sync.Mutex
	cond    *sync.Cond
	free    int
	waiting map[string]time.Duration
	// registered counts the phase's tests, arrived those that reached acquire.
	registered, arrived int
}

func newPool(phase string, slots int) *pool {
	p := &pool{phase: phase, free: slots, waiting: map[string]time.Duration{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// register counts a test of the phase; called before t.Parallel.
func (p *pool) register() {
	p.mu.Lock()
	p.registered++
	p.mu.Unlock()
}

// acquire waits for a slot; then it logs gateMarker (hack/testtimes counts the test's time
// from there: the wait was other tests' time).
func (p *pool) acquire(t *testing.T) {
	t.Helper()
	start := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	name := t.Name()
	p.waiting[name] = expected[name]
	p.arrived++
	p.cond.Broadcast()
	for p.arrived < p.registered || p.free == 0 || p.next() != name {
		p.cond.Wait()
	}
	delete(p.waiting, name)
	p.free--
	p.cond.Broadcast()
	t.Logf("%s in the %s phase, after %s waiting", gateMarker, p.phase, time.Since(start).Round(time.Second))
}

func (p *pool) release() {
	p.mu.Lock()
	p.free++
	p.mu.Unlock()
	p.cond.Broadcast()
}

// next is the waiting test to start next: the longest expected, then by name.
func (p *pool) next() string {
	best := ""
	for n, d := range p.waiting {
		if best == "" || d > p.waiting[best] || d == p.waiting[best] && n < best {
			best = n
		}
	}
	return best
}

// gateMarker starts the line a test logs when it gets its slot; hack/testtimes reads it.
const gateMarker = "e2e gate: running"
