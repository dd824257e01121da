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

// targetAnswer is the answer to the targets query: one controller's scrape target.
const targetAnswer = `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080"},"value":[1700000000,"3"]}]}}`

// answering is a server of the Prometheus API on loopback that finds one target and answers
// every other query with answer(query).
func answering(t *testing.T, answer func(query string) string) *promsource.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		q := r.Form.Get("query")
		if strings.HasPrefix(q, "count by (") {
			_, _ = w.Write([]byte(targetAnswer))
			return
		}
		_, _ = w.Write([]byte(answer(q)))
	}))
	t.Cleanup(srv.Close)
	c, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A matrix where the families' instant query asks for a vector, its series without samples,
// is an error of the target, not a crash.
func TestMatrixAnswerToAnInstantQuery(t *testing.T) {
	for name, body := range map[string]string{
		"a matrix without samples": `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"workqueue_depth","namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080","name":"q"},"values":[]}]}}`,
		"a matrix with samples":    `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"workqueue_depth","namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080","name":"q"},"values":[[1699999000,"1"],[1700000000,"2"]]}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			c := answering(t, func(string) string { return body })
			s := promsource.New(promsource.Config{Client: c, At: time.Unix(1700000000, 0)})
			if _, err := s.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			rs := s.Read(context.Background(), source.Options{})
			if len(rs) != 1 || rs[0].Err == nil {
				t.Fatalf("errors %v, want one target failing", errsOf(rs))
			}
			if msg := rs[0].Err.Error(); !strings.Contains(msg, "a matrix where the query asks for a vector") {
				t.Errorf("error %q does not say the answer was a matrix where a vector was asked for", msg)
			}
		})
	}
}

// nativeAnswer is a vector of one native histogram series of the target with n buckets.
func nativeAnswer(n int) string {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"workqueue_work_duration_seconds","namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080","name":"q"},"histogram":[1700000000,{"count":"` +
		strconv.Itoa(n) + `","sum":"1","buckets":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `[0,"%d","%d","1"]`, i+1, i+2)
	}
	b.WriteString(`]}]}]}}`)
	return b.String()
}

// A native histogram with more buckets than any client keeps is refused, well within the
// deadline, rather than converted for half a minute past it.
func TestHugeNativeHistogramIsRefused(t *testing.T) {
	body := nativeAnswer(60000)
	c := answering(t, func(q string) string {
		if strings.HasPrefix(q, "changes(") {
			return `{"status":"success","data":{"resultType":"vector","result":[]}}`
		}
		return body
	})
	s := promsource.New(promsource.Config{Client: c, At: time.Unix(1700000000, 0)})
	if _, err := s.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	ctx, cancel := source.StartClock(nil, 10*time.Second).Bound(context.Background())
	defer cancel()
	rs := s.Read(ctx, source.Options{})
	if took := time.Since(t0); took > 5*time.Second {
		t.Errorf("reading took %s with --deadline 10s", took)
	}
	if len(rs) != 1 || rs[0].Err == nil || !strings.Contains(rs[0].Err.Error(), "more than 16384 buckets") {
		t.Errorf("errors %v, want the target failing on the bucket cap", errsOf(rs))
	}
}

// stalling answers the targets query at once and stalls on the others (until the client
// gives up), or stalls on every query with all.
func stalling(t *testing.T, all bool) *promsource.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if !all && strings.HasPrefix(r.Form.Get("query"), "count by (") {
			_, _ = w.Write([]byte(targetAnswer))
			return
		}
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	c, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// --deadline bounds the query for the targets, and says so.
func TestDeadlineBoundsDiscovery(t *testing.T) {
	s := promsource.New(promsource.Config{Client: stalling(t, true), At: time.Unix(1700000000, 0)})
	t0 := time.Now()
	ctx, cancel := source.StartClock(nil, 300*time.Millisecond).Bound(context.Background())
	defer cancel()
	_, err := s.Open(ctx)
	if took := time.Since(t0); took > 3*time.Second {
		t.Errorf("discovery took %s with --deadline 300ms", took)
	}
	if err == nil || !strings.Contains(err.Error(), "--deadline 300ms passed") {
		t.Errorf("err = %v, want the deadline named", err)
	}
}

// A reading stopped by --deadline says so, not that one query outlived --timeout.
func TestReadDeadlineIsNamed(t *testing.T) {
	s := promsource.New(promsource.Config{Client: stalling(t, false), At: time.Unix(1700000000, 0)})
	if _, err := s.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := source.StartClock(nil, 300*time.Millisecond).Bound(context.Background())
	defer cancel()
	rs := s.Read(ctx, source.Options{})
	if len(rs) != 1 || rs[0].Err == nil || !strings.Contains(rs[0].Err.Error(), "--deadline 300ms passed") || strings.Contains(rs[0].Err.Error(), "--timeout") {
		t.Errorf("errors %v, want the target failing on the deadline", errsOf(rs))
	}
}

// errsOf lists the results' errors.
func errsOf(rs []source.Result) []error {
	out := make([]error, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Err)
	}
	return out
}
