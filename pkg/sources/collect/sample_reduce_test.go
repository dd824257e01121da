package collect

import (
	"context"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// Collect parses every page with the reduction it is given: the API server's request latency
// has fewer series than the page, and the model reads the same from them.
func TestCollectReduces(t *testing.T) {
	const family = "apiserver_request_duration_seconds"
	reduce := map[string]parse.Reduce{}
	for name, r := range health.Reduced() {
		reduce[name] = parse.Reduce(r)
	}
	read := func(reduce map[string]parse.Reduce) *health.Snapshot {
		src := &scrape.FileSource{Paths: []string{"../../../testdata/pages/kube-apiserver-large.prom.gz"}}
		res := Collect(context.Background(), []scrape.Source{src}, source.Options{Timeout: 10 * time.Second, Keep: health.Wanted, Reduce: reduce})
		if len(res) != 1 || res[0].Err != nil || len(res[0].Samples) != 1 {
			t.Fatalf("%+v", res)
		}
		fams := res[0].Samples[0].Families
		if reduce != nil && len(fams[family].GetMetric()) >= 203 {
			t.Errorf("%d series of %s read reduced, 203 on the page", len(fams[family].GetMetric()), family)
		}
		return health.FromFamilies(fams, time.Unix(0, 0))
	}
	whole, reduced := read(nil), read(reduce)
	if len(whole.APIRequests) == 0 || len(whole.APIRequests) != len(reduced.APIRequests) {
		t.Fatalf("%d request keys reduced, %d whole", len(reduced.APIRequests), len(whole.APIRequests))
	}
	for k, w := range whole.APIRequests {
		r := reduced.APIRequests[k]
		if r == nil || r.Count != w.Count || r.Sum != w.Sum || len(r.Buckets) != len(w.Buckets) {
			t.Errorf("%+v: reduced %+v, whole %+v", k, r, w)
		}
	}
}
