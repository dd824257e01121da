package parse

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// healthReduced is what the model reads of the families it reads in part, as the commands
// pass it to the parser.
func healthReduced() map[string]Reduce {
	out := map[string]Reduce{}
	for name, r := range health.Reduced() {
		out[name] = Reduce(r)
	}
	return out
}

const requestFamily = "apiserver_request_duration_seconds"

// parseReduced parses page as `report` does: what the model reads, the API server's request
// latency reduced.
func parseReduced(page []byte) (*Page, error) {
	return ParseSelected("src", bytes.NewReader(page), NewReducingSelector(health.Wanted, healthReduced()))
}

// sameModel says how the model of reduced differs from the model of whole: the API server's
// request latency (bit for bit), the families the page has and those mistyped. Every other
// family must be the same, proto for proto.
func sameModel(whole, reduced map[string]*dto.MetricFamily) error {
	t := time.Unix(1700000000, 0)
	w, r := health.FromFamilies(whole, t), health.FromFamilies(reduced, t)
	if err := sameRequests(w.APIRequests, r.APIRequests); err != nil {
		return err
	}
	if got, want := fmt.Sprint(familyNames(r.Families)), fmt.Sprint(familyNames(w.Families)); got != want {
		return fmt.Errorf("families %s, whole %s", got, want)
	}
	if got, want := fmt.Sprint(r.Mistyped), fmt.Sprint(w.Mistyped); got != want {
		return fmt.Errorf("mistyped %s, whole %s", got, want)
	}
	for name, f := range whole {
		if name != requestFamily && !proto.Equal(f, reduced[name]) {
			return fmt.Errorf("family %s differs:\nwhole:   %v\nreduced: %v", name, f, reduced[name])
		}
	}
	return nil
}

func familyNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sameRequests compares two models' request latencies bit for bit (NaN equals NaN).
func sameRequests(want, got map[health.APIRequestKey]*health.Histogram) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d request keys, whole %d", len(got), len(want))
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for k, w := range want {
		g, ok := got[k]
		if !ok || (g == nil) != (w == nil) {
			return fmt.Errorf("%+v: reduced %v, whole %v", k, g, w)
		}
		if w == nil {
			continue // a family of another type: no histogram either way
		}
		ok = same(w.Count, g.Count) && same(w.Sum, g.Sum) && len(w.Buckets) == len(g.Buckets)
		for i := 0; ok && i < len(w.Buckets); i++ {
			ok = same(w.Buckets[i].UpperBound, g.Buckets[i].UpperBound) && same(w.Buckets[i].Count, g.Buckets[i].Count)
		}
		if !ok {
			return fmt.Errorf("%+v: reduced %+v, whole %+v", k, *g, *w)
		}
	}
	return nil
}

// TestReducedModelEqualsFullParse: on every captured page and the synthetic one, the model's
// request latency from the reduced parse is exactly the one from expfmt's full parse of the
// whole page, and every other family the filtered parse keeps is unchanged.
func TestReducedModelEqualsFullParse(t *testing.T) {
	for name, page := range fixturesAndSynthetic(t) {
		t.Run(name, func(t *testing.T) {
			if err := reducedEqualsFull(page); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// reducedEqualsFull checks the reduced parse of page against expfmt's parse of the whole page.
func reducedEqualsFull(page []byte) error {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	full, err := parser.TextToMetricFamilies(bytes.NewReader(page))
	if err != nil {
		return err
	}
	whole := map[string]*dto.MetricFamily{}
	for n, f := range full {
		if health.Wanted(n) {
			f.Help = nil
			whole[n] = f
		}
	}
	reduced, err := parseReduced(page)
	if err != nil {
		return err
	}
	return sameModel(whole, reduced.Families)
}

// TestReducedReadsLess: on the large API server page the family is read reduced: the long-running
// verbs and series without a resource left out, four labels at most, the series that differ
// only in the others summed.
func TestReducedReadsLess(t *testing.T) {
	page := fixtures(t)["kube-apiserver-large.prom.gz"]
	whole, err := Parse("src", bytes.NewReader(page), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	reduced, err := parseReduced(page)
	if err != nil {
		t.Fatal(err)
	}
	w, r := whole.Families[requestFamily], reduced.Families[requestFamily]
	if w == nil || r == nil {
		t.Fatalf("the page lacks %s", requestFamily)
	}
	if len(r.GetMetric()) == 0 || len(r.GetMetric()) >= len(w.GetMetric()) {
		t.Fatalf("%d series reduced, %d whole", len(r.GetMetric()), len(w.GetMetric()))
	}
	seen := map[string]bool{}
	for _, m := range r.GetMetric() {
		l := map[string]string{}
		for _, p := range m.GetLabel() {
			l[p.GetName()] = p.GetValue()
		}
		key := fmt.Sprint(l)
		if len(l) > 4 || l["resource"] == "" || l["verb"] == "WATCH" || l["verb"] == "WATCHLIST" || l["verb"] == "CONNECT" || seen[key] {
			t.Errorf("reduced series %v", l)
		}
		seen[key] = true
	}
}

// reduceCases are pages of the family, most of them odd, that the reduced parse must read
// into the same model as the whole family, or fail on exactly as the parse without reduction.
var reduceCases = []struct{ name, page string }{
	{"summed and dropped", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"a\",verb=\"GET\",le=\"0.1\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"a\",verb=\"GET\",le=\"+Inf\"} 2\n" +
		requestFamily + "_sum{resource=\"pods\",scope=\"a\",verb=\"GET\"} 0.30000000000000004\n" +
		requestFamily + "_count{resource=\"pods\",scope=\"a\",verb=\"GET\"} 2\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"b\",verb=\"GET\",le=\"0.1\"} 3\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"b\",verb=\"GET\",le=\"+Inf\"} 4\n" +
		requestFamily + "_sum{resource=\"pods\",scope=\"b\",verb=\"GET\"} 0.1\n" +
		requestFamily + "_count{resource=\"pods\",scope=\"b\",verb=\"GET\"} 4\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"WATCH\",le=\"+Inf\"} 9\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"WATCH\"} 9\n" +
		requestFamily + "_bucket{resource=\"\",verb=\"GET\",le=\"+Inf\"} 9\n" +
		requestFamily + "_count{verb=\"GET\"} 9\n"},
	{"only dropped series", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"WATCH\",le=\"+Inf\"} 9\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"WATCH\"} 9\n"},
	{"interleaved series", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"a\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",scope=\"b\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "_sum{resource=\"pods\",scope=\"b\",verb=\"GET\"} 0.7\n" +
		requestFamily + "_sum{resource=\"pods\",scope=\"a\",verb=\"GET\"} 0.1\n" +
		requestFamily + "_bucket{le=\"2\",scope=\"a\",verb=\"GET\",resource=\"pods\"} 5\n" +
		requestFamily + "_sum{resource=\"pods\",scope=\"a\",verb=\"GET\"} 0.2\n" +
		requestFamily + "_count{resource=\"pods\",scope=\"a\",verb=\"GET\"} 5\n"},
	{"float counts, no +Inf", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"1\"} 1.5\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\"} 2\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",scope=\"x\",le=\"1\"} 1\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\",scope=\"x\"} 7.5\n"},
	{"one series without +Inf", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\"} 3\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",scope=\"x\",le=\"1\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",scope=\"x\",le=\"+Inf\"} 5\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\",scope=\"x\"} 5\n"},
	{"bounds out of order, NaN, repeated", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"2\"} 3\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"NaN\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"PUT\",le=\"NaN\"} 1\n"},
	{"odd spacing, escapes, timestamps", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"po\\\"ds\",verb=\"GET\",le=\"1\"} 1 1700000000000\n" +
		requestFamily + "_bucket { resource = \"pods\", verb=\"GET\",le=\"1\"}  2\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\"}\t2\n" +
		"  " + requestFamily + "_sum{resource=\"pods\",verb=\"GET\"} 1e-3\n" +
		"{\"" + requestFamily + "_count\",resource=\"pods\",verb=\"GET\"} 3\n"},
	{"bare family name", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "{resource=\"pods\",verb=\"GET\",le=\"1\"} 1\n" +
		requestFamily + "{resource=\"pods\",verb=\"GET\"} 1\n"},
	{"empty values and absent labels", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{group=\"\",resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 2\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\",subresource=\"\"} 4\n"},
	{"no TYPE", requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n" +
		requestFamily + "_sum{resource=\"pods\",verb=\"GET\"} 1\n" + requestFamily + "_count{resource=\"pods\",verb=\"GET\"} 1\n"},
	{"samples before TYPE", requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n" +
		"# TYPE " + requestFamily + " histogram\n" + requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n"},
	{"TYPE of another form", "# TYPE  " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n"},
	{"TYPE summary", "# TYPE " + requestFamily + " summary\n" +
		requestFamily + "{resource=\"pods\",verb=\"GET\",quantile=\"0.5\"} 1\n" + requestFamily + "_count{resource=\"pods\",verb=\"GET\"} 1\n"},
	{"second TYPE", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} 1\n" + "# TYPE " + requestFamily + " histogram\n"},
	{"invalid value", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} x\n"},
	{"invalid le in a dropped series", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"WATCH\",le=\"y\"} 1\n"},
	{"negative count", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_count{resource=\"pods\",verb=\"GET\"} -1.5\n"},
	{"duplicate label", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_sum{resource=\"pods\",resource=\"x\"} 1\n"},
	{"invalid line before one of the family", "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} z\n# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} x\n"},
	{"invalid line after one of the family", "# TYPE " + requestFamily + " histogram\n" +
		requestFamily + "_bucket{resource=\"pods\",verb=\"GET\",le=\"+Inf\"} x\n# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} z\n"},
}

func TestReducedCases(t *testing.T) {
	for _, tc := range reduceCases {
		t.Run(tc.name, func(t *testing.T) {
			if err := reducedEqualsWhole([]byte(tc.page)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// reducedEqualsWhole checks the reduced parse of page against the parse without reduction
// (which the other tests hold to expfmt): the same error, or the same model.
func reducedEqualsWhole(page []byte) error {
	whole, werr := Parse("src", bytes.NewReader(page), health.Wanted)
	reduced, rerr := parseReduced(page)
	if werr != nil || rerr != nil {
		if fmt.Sprint(werr) != fmt.Sprint(rerr) {
			return fmt.Errorf("reduced parse fails with %v, whole with %v", rerr, werr)
		}
		return nil
	}
	return sameModel(whole.Families, reduced.Families)
}

// FuzzReducedEqualsWhole: whatever the page, the reduced parse fails as the parse without
// reduction does, or gives the same model and every other family unchanged.
func FuzzReducedEqualsWhole(f *testing.F) {
	for _, tc := range reduceCases {
		f.Add([]byte(tc.page))
	}
	page := fixtures(f)["kube-apiserver-1.prom.gz"]
	if i := bytes.Index(page, []byte("# TYPE "+requestFamily+" ")); i >= 0 {
		f.Add(page[i:min(len(page), i+8192)])
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		if err := reducedEqualsWhole(page); err != nil {
			t.Fatalf("%q: %v", page, err)
		}
	})
}

// The reduced family's name and type are the page's; a page without it has none.
func TestReducedWithoutTheFamily(t *testing.T) {
	p, err := parseReduced([]byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Families[requestFamily]; ok || len(p.Families) != 1 {
		t.Fatalf("families %v", p.Families)
	}
	if !strings.Contains(fmt.Sprint(healthReduced()[requestFamily].Drop["verb"]), "WATCH") {
		t.Fatalf("health.Reduced: %v", healthReduced())
	}
}
