package promsource_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promapi"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// targetAnswer is the answer to the targets query: one controller's scrape target.
const targetAnswer = `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080"},"value":[1700000000,"3"]}]}}`

// answering is a server of the Prometheus API on loopback that finds one target and answers
// every other query with answer(query).
func answering(t *testing.T, answer func(query string) string) *promapi.Client {
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
	c, err := promapi.New(promapi.Config{URL: srv.URL, Timeout: 5 * time.Second})
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
				t.Fatalf("results %+v, want one target failing", rs)
			}
			if msg := rs[0].Err.Error(); !strings.Contains(msg, "a matrix where the query asks for a vector") {
				t.Errorf("error %q does not say the answer was a matrix where a vector was asked for", msg)
			}
		})
	}
}
