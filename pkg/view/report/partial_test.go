package report

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// onceLive is a live source that serves a captured controller-runtime page on its first
// fetch; later fetches fail with fail, or, when fail is nil, wait for their context to end.
type onceLive struct {
	page  []byte
	fail  error
	calls atomic.Int32
}

func (s *onceLive) Name() string { return "http://op:8080/metrics" }

func (s *onceLive) Target() target.Target { return target.Target{Kind: target.KindURL, Name: s.Name()} }

func (s *onceLive) Fetch(ctx context.Context) (*scrape.Page, error) {
	if s.calls.Add(1) == 1 {
		return &scrape.Page{Body: io.NopCloser(strings.NewReader(string(s.page))), Time: time.Now()}, nil
	}
	if s.fail != nil {
		return nil, s.fail
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// A target whose first sample was read but not its second is judged over its lifetime, and
// its error is kept: listed under errors with the window it was judged over, in the words of
// the sampling error (the words `queues` prints), and without a scrape-failed finding. The
// target read twice keeps the report's window.
func TestBuildKeepsTheErrorOfAPartialRead(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(testpages.Dir(), "controller-runtime-1.prom"))
	if err != nil {
		t.Fatal(err)
	}
	dir := testpages.Dir()
	tests := []struct {
		name     string
		src      scrape.Source
		opts     source.Options
		deadline time.Duration
		wantText string
	}{
		{name: "second read fails", src: &onceLive{page: page, fail: errors.New("connection refused")},
			opts:     source.Options{Interval: 10 * time.Millisecond, Timeout: 5 * time.Second},
			wantText: "second sample (rates and window quantiles unavailable, lifetime figures shown): connection refused"},
		{name: "overall deadline before the second sample", src: &onceLive{page: page},
			opts: source.Options{Interval: 10 * time.Millisecond, Timeout: time.Minute}, deadline: 300 * time.Millisecond,
			wantText: "overall deadline reached: --deadline 300ms passed before its second sample"},
		{name: "saved pages in the wrong order", src: &scrape.FileSource{Paths: []string{
			filepath.Join(dir, "controller-runtime-2.prom"), filepath.Join(dir, "controller-runtime-1.prom")}},
			opts:     source.Options{Interval: time.Second, Timeout: 5 * time.Second},
			wantText: "the saved pages are not in time order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Keep = health.Wanted
			ctx, cancel := source.StartClock(nil, tt.deadline).Bound(context.Background())
			defer cancel()
			res := collect.Collect(ctx, []scrape.Source{tt.src}, tt.opts)[0]
			if len(res.Samples) != 1 || res.Err == nil || !strings.Contains(res.Err.Error(), tt.wantText) {
				t.Fatalf("the sampling should give one sample and an error %q: %d samples, %v", tt.wantText, len(res.Samples), res.Err)
			}
			op := res.Target
			r := Build(partialInput(t, res.Model()))

			if r.Window != "10s" || r.Summary.Targets != 2 || r.Summary.Read != 2 {
				t.Errorf("window %q, %d of %d read: the kcm pair sets the window and both targets are read",
					r.Window, r.Summary.Read, r.Summary.Targets)
			}
			want := view.TargetError{Target: op.ID(), Error: res.Err.Error(), Window: view.Lifetime}
			if len(r.Errors) != 1 || r.Errors[0] != want {
				t.Errorf("errors = %+v, want [%+v]", r.Errors, want)
			}
			for _, f := range r.Findings {
				if f.Check == "scrape-failed" {
					t.Errorf("a target with lifetime figures is not a failed scrape: %+v", f)
				}
			}
			// The lifetime figures are still used: the target has its rows, without a trend.
			var rows int
			for _, b := range r.Backlog {
				if b.Target == op.ID() {
					rows++
					if b.Trend != "unknown" || b.DepthBefore != nil {
						t.Errorf("%s: one sample has no trend: %+v", b.Queue, b)
					}
				}
			}
			if rows == 0 || !hasResources(r, op.ID()) {
				t.Errorf("the target's lifetime figures are missing: %d backlog rows", rows)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if _, errs, _ := strings.Cut(string(b), `"errors":`); !strings.Contains(errs, `"window":"lifetime"}]`) {
				t.Errorf("the json errors do not name the window: %q", errs)
			}
		})
	}
}

// With every target read twice there is nothing to list: no errors, and the json has no
// "errors" key, as before.
func TestBuildTwoSamplesHasNoErrors(t *testing.T) {
	op := target.Target{Kind: target.KindURL, Name: "http://op:8080/metrics"}
	now := partialNow
	r := Build(partialInput(t, model.Of(model.Facts{Target: op, Window: 10 * time.Second}, []model.Page{
		{Families: families(t, "controller-runtime-1.prom"), Time: now.Add(-10 * time.Second)},
		{Families: families(t, "controller-runtime-2.prom"), Time: now}})))
	if r.Errors != nil || r.Window != "10s" || r.Summary.Read != 2 {
		t.Errorf("errors %+v, window %q, read %d", r.Errors, r.Window, r.Summary.Read)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"errors"`) {
		t.Error("the json lists errors")
	}
}

var partialNow = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

// partialInput is the input of a report over two targets: kube-controller-manager, read
// twice 10 s apart, and ti.
func partialInput(t *testing.T, ti model.Target) Input {
	kcm := target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257}
	return Input{Scope: "test", Now: partialNow, Thresholds: findings.DefaultThresholds(),
		Targets: []model.Target{
			model.Of(model.Facts{Target: kcm, Window: 10 * time.Second}, []model.Page{
				{Families: families(t, "kube-controller-manager-1.prom.gz"), Time: partialNow.Add(-10 * time.Second)},
				{Families: families(t, "kube-controller-manager-2.prom.gz"), Time: partialNow}}),
			ti,
		}}
}

func hasResources(r view.Report, id string) bool {
	for _, x := range r.Resources {
		if x.Target == id {
			return true
		}
	}
	return false
}
