package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/test/pagegen"
)

// fixtures returns every captured page under testdata/pages, decompressed.
func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	paths, _ := filepath.Glob("../../testdata/pages/*.prom*")
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/pages")
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// keepModel mirrors what the health model keeps (parse must not import health).
func keepModel(name string) bool {
	return strings.HasPrefix(name, "workqueue_") || strings.HasPrefix(name, "controller_runtime_") ||
		strings.HasPrefix(name, "rest_client_") || strings.HasPrefix(name, "informer_") ||
		name == "apiserver_watch_cache_resource_version" || name == "process_resident_memory_bytes" ||
		name == "go_memstats_heap_inuse_bytes" || strings.Contains(name, "cache_sync_lag") ||
		strings.HasPrefix(name, "external_dns_controller_") || strings.HasPrefix(name, "certmanager_controller_sync_")
}

// fixturesAndSynthetic returns the fixtures and an 8 MB page test/pagegen grows from a
// kube-apiserver page (8 MB keeps the tests fast; the benchmarks check the 30 MB page).
func fixturesAndSynthetic(t *testing.T) map[string][]byte {
	t.Helper()
	pages := fixtures(t)
	synthetic, err := pagegen.Page(syntheticSeed, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	pages["synthetic-8MB"] = synthetic
	return pages
}

// syntheticSeed is the captured page test/pagegen grows into the synthetic big page.
const syntheticSeed = "../../testdata/pages/kube-apiserver-large.prom.gz"

// TestFilterEqualsFullParse proves the line filter changes nothing: on every fixture, and on
// a synthetic page grown from a kube-apiserver page (8 MB here to keep the test fast; the
// benchmarks check the 30 MB page the same way before timing it), the filtered parse yields
// exactly the wanted families of a full parse, without their HELP text, with keepModel and
// with the model's own health.Wanted.
func TestFilterEqualsFullParse(t *testing.T) {
	pages := fixturesAndSynthetic(t)
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			for _, keep := range []Keep{keepModel, health.Wanted} {
				if err := filterEqualsFull(name, page, keep); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// filterEqualsFull parses page fully and filtered by keep, and says how they differ.
func filterEqualsFull(name string, page []byte, keep Keep) error {
	// The reference is expfmt itself on the whole page (Parse would stop a page this large at
	// MaxSeries when told to keep everything).
	parser := expfmt.NewTextParser(model.UTF8Validation)
	full, err := parser.TextToMetricFamilies(bytes.NewReader(page))
	if err != nil {
		return err
	}
	filtered, err := Parse(name, bytes.NewReader(page), keep)
	if err != nil {
		return err
	}
	want := map[string]*dto.MetricFamily{}
	for n, f := range full {
		if keep(n) {
			f.Help = nil // printed nowhere, and never kept
			want[n] = f
		}
	}
	if len(want) == 0 {
		return fmt.Errorf("%s has none of the wanted families", name)
	}
	if len(filtered.Families) != len(want) {
		return fmt.Errorf("filtered parse has %d families, full parse %d", len(filtered.Families), len(want))
	}
	var differ []string
	for n, f := range want {
		if !proto.Equal(f, filtered.Families[n]) {
			differ = append(differ, n)
		}
	}
	if len(differ) > 0 {
		return fmt.Errorf("families differ between filtered and full parse: %v", sorted(differ))
	}
	return nil
}

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		page      string
		keep      Keep
		families  []string
		sampleSec int64
		wantErr   string
	}{
		{name: "empty page", page: "", wantErr: "src: the page is empty: "},
		{name: "unknown families ignored", page: "# TYPE foo gauge\nfoo 1\nbar{x=\"1\"} 2\n", keep: keepModel},
		{name: "alpha help and no trailing newline",
			page:     "# HELP workqueue_depth [ALPHA] Current depth\n# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 3",
			keep:     keepModel,
			families: []string{"workqueue_depth"}},
		{name: "sample time comment", page: "# ctrldiag-sample-time: 2026-11-22T03:05:00Z\nworkqueue_depth{name=\"a\"} 3\n",
			keep: keepModel, families: []string{"workqueue_depth"}, sampleSec: time.Date(2026, 11, 22, 3, 5, 0, 0, time.UTC).Unix()},
		{name: "histogram suffixes kept with family",
			page: "# TYPE workqueue_work_duration_seconds histogram\nworkqueue_work_duration_seconds_bucket{name=\"a\",le=\"+Inf\"} 1\n" +
				"workqueue_work_duration_seconds_sum{name=\"a\"} 1\nworkqueue_work_duration_seconds_count{name=\"a\"} 1\n",
			keep: keepModel, families: []string{"workqueue_work_duration_seconds"}},
		{name: "quoted utf8 name", page: "{\"workqueue.depth\",name=\"a\"} 1\n", keep: func(n string) bool { return n == "workqueue.depth" },
			families: []string{"workqueue.depth"}},
		{name: "error names the original line", page: "foo 1\nbar 2\n\n# junk\nworkqueue_depth{name=\"a\" 3\n", keep: keepModel,
			wantErr: "src: line 5:"},
		{name: "nan and inf values", page: "workqueue_depth{name=\"a\"} NaN\nworkqueue_adds_total{name=\"a\"} +Inf\n", keep: keepModel,
			families: []string{"workqueue_adds_total", "workqueue_depth"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("src", strings.NewReader(tt.page), tt.keep)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for n := range p.Families {
				got = append(got, n)
			}
			if strings.Join(sorted(got), ",") != strings.Join(tt.families, ",") {
				t.Errorf("families = %v, want %v", sorted(got), tt.families)
			}
			if p.SampleTime.Unix() != tt.sampleSec && !(tt.sampleSec == 0 && p.SampleTime.IsZero()) {
				t.Errorf("sample time = %v, want unix %d", p.SampleTime, tt.sampleSec)
			}
		})
	}
}

// TestReadErrorWins: an error of the body (too large, timeout) is reported, not a parse error.
func TestReadErrorWins(t *testing.T) {
	r := io.MultiReader(strings.NewReader("workqueue_depth{name=\"a\"} 1\nworkqueue_de"), errReader{})
	_, err := Parse("src", r, keepModel)
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("error = %v, want the read error", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBoom }

func sorted(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

var errBoom = &boomError{}

type boomError struct{}

func (*boomError) Error() string { return "boom" }

// A page with more series of the kept families than MaxSeries stops early with a clear error,
// instead of taking gigabytes; series of other families do not count.
func TestParseTooManySeries(t *testing.T) {
	var b strings.Builder
	b.WriteString("# TYPE workqueue_depth gauge\n")
	for i := 0; i <= MaxSeries; i++ {
		fmt.Fprintf(&b, "workqueue_depth{name=\"q%d\"} 1\nother_metric{i=\"%d\"} 1\n", i, i)
	}
	_, err := Parse("many", strings.NewReader(b.String()), keepModel)
	var tm *TooManySeriesError
	if !errors.As(err, &tm) || !strings.Contains(err.Error(), "more than 200000 series") {
		t.Fatalf("want a TooManySeriesError, got %v", err)
	}
	_, err = Parse("some", strings.NewReader(b.String()[:1<<20]), keepModel)
	if err != nil && errors.As(err, &tm) {
		t.Fatalf("a page under the limit: %v", err)
	}
}
