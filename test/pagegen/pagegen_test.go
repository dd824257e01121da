package pagegen

import (
	"bytes"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestPage: the grown page is valid text format, at least the size asked for, and has the
// seed's families with more series.
func TestPage(t *testing.T) {
	const seedPath = "../../testdata/pages/kube-apiserver-1.prom.gz"
	seed, err := ReadSeed(seedPath)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(3 * len(seed))
	page, err := Page(seedPath, size)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(page)) < size {
		t.Fatalf("page is %d bytes, want at least %d", len(page), size)
	}
	parse := func(b []byte) map[string]int {
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for n, f := range fams {
			out[n] = len(f.GetMetric())
		}
		return out
	}
	before, after := parse(seed), parse(page)
	if len(before) != len(after) {
		t.Fatalf("%d families in the seed, %d in the grown page", len(before), len(after))
	}
	if after["apiserver_request_duration_seconds"] <= before["apiserver_request_duration_seconds"] {
		t.Errorf("apiserver_request_duration_seconds did not grow: %d -> %d", before["apiserver_request_duration_seconds"], after["apiserver_request_duration_seconds"])
	}
	if after["workqueue_depth"] != before["workqueue_depth"] {
		t.Errorf("workqueue_depth changed: %d -> %d series", before["workqueue_depth"], after["workqueue_depth"])
	}
}
