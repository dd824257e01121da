package promsource_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// haServer answers as a server holding both replicas (replica="A" and "B") of one target's
// workqueue_adds_total, not deduplicated: at the window's start A holds 100 and B 101, at its
// end A 160 and B 161; only B holds the start when onlyBAtStart.
func haServer(t *testing.T, at time.Time, onlyBAtStart bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		q, ts := r.Form.Get("query"), r.Form.Get("time")
		atEnd := ts == strconv.FormatFloat(float64(at.Unix()), 'f', 3, 64)
		labels := `"cluster":"c1","namespace":"ns","pod":"op","job":"operator","instance":"10.0.0.1:8080"`
		var result []string
		switch {
		case strings.HasPrefix(q, "count by"):
			result = append(result, fmt.Sprintf(`{"metric":{%s},"value":[%d,"1"]}`, labels, at.Unix()))
		case strings.HasPrefix(q, "{"):
			for i, rep := range []string{"A", "B"} {
				v := 100 + i
				if atEnd {
					v += 60
				} else if onlyBAtStart && rep == "A" {
					continue
				}
				result = append(result, fmt.Sprintf(`{"metric":{"__name__":"workqueue_adds_total","name":"q","replica":%q,%s},"value":[%d,"%d"]}`, rep, labels, at.Unix(), v))
			}
		}
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[%s]}}`, strings.Join(result, ","))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Series of two replicas of one target: with the replica label known, one series of one
// replica, the same at both ends of the window, without the label; without it, both.
func TestReplicasReadOnce(t *testing.T) {
	at := time.Unix(1700000000, 0)
	cases := []struct {
		name         string
		labels       []string
		onlyBAtStart bool
		want         []float64 // the series' values at the start and end
	}{
		{"replica label known", []string{"replica"}, false, []float64{100, 160}},
		{"the first replica lacks the start", []string{"prometheus_replica", "replica"}, true, []float64{101, 161}},
		{"no replica label", nil, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			client, err := promsource.NewClient(promsource.ClientConfig{URL: haServer(t, at, tc.onlyBAtStart), ReplicaLabels: tc.labels})
			if err != nil {
				t.Fatal(err)
			}
			src := promsource.New(promsource.Config{Client: client, At: at, Window: time.Minute})
			if _, err := src.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			res := src.Read(context.Background(), source.Options{})
			if len(res) != 1 || res[0].Err != nil || len(res[0].Samples) != 2 {
				t.Fatalf("results %+v", res)
			}
			for i, s := range res[0].Samples {
				mf := s.Families["workqueue_adds_total"]
				if mf == nil {
					t.Fatalf("sample %d: no workqueue_adds_total", i)
				}
				if tc.want == nil {
					if len(mf.Metric) != 2 {
						t.Errorf("sample %d: %d series, want both replicas'", i, len(mf.Metric))
					}
					continue
				}
				if len(mf.Metric) != 1 {
					t.Fatalf("sample %d: %d series, want one", i, len(mf.Metric))
				}
				m := mf.Metric[0]
				if v := m.GetCounter().GetValue(); v != tc.want[i] {
					t.Errorf("sample %d: %g, want %g", i, v, tc.want[i])
				}
				for _, l := range m.Label {
					if l.GetName() == "replica" {
						t.Errorf("sample %d keeps the replica label: %v", i, m.Label)
					}
				}
			}
		})
	}
}
