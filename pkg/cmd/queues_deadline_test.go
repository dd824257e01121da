package cmd

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// slowPrometheus answers the queries of a reading of one target, each after delay: the
// targets, the families at the window's ends, a restart within the window (so that the raw
// samples are asked after the others, a second round), and those raw samples.
func slowPrometheus(t *testing.T, delay time.Duration) *httptest.Server {
	const labels = `"job":"op","instance":"10.0.0.1:8080","namespace":"ns","pod":"op-0"`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if r.URL.Path != "/api/v1/query" {
			http.NotFound(w, r)
			return
		}
		q := r.FormValue("query")
		var result string
		switch {
		case strings.HasPrefix(q, "count by"), strings.HasPrefix(q, "changes("):
			result = `{"resultType":"vector","result":[{"metric":{` + labels + `},"value":[1700000000,"1"]}]}`
		case strings.HasSuffix(q, "]"):
			result = `{"resultType":"matrix","result":[]}`
		default:
			result = `{"resultType":"vector","result":[{"metric":{"__name__":"workqueue_adds_total","name":"q",` + labels + `},"value":[1700000000,"7"]}]}`
		}
		fmt.Fprintf(w, `{"status":"success","data":%s}`, result)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Against a Prometheus whose every answer takes 0.6 times --deadline, two rounds of queries
// cannot both be answered: the run ends with the one deadline error, which names what was
// read by then, with exit code 1 as a run that read nothing.
func TestDeadlineHoldsOnASlowPrometheus(t *testing.T) {
	const deadline = time.Second
	srv := slowPrometheus(t, deadline*6/10)
	_, _, err := runQueues(t, "", "--prometheus", srv.URL, "--deadline", deadline.String())
	var late *source.DeadlineError
	if !errors.As(err, &late) || late.Deadline != deadline || late.Read == "" {
		t.Fatalf("err = %v, want the run's deadline error naming what was read", err)
	}
	code, msg := cli.CodeFor(err)
	if code != cli.ExitError || !strings.HasPrefix(msg, "overall deadline reached: --deadline 1s passed") || !strings.Contains(msg, "read by then: 1 target found") {
		t.Errorf("exit %d, %q: want 1 and the overall deadline named with what was read", code, msg)
	}
}
