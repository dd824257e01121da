package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/hostiletext"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// hostile is a label value that attacks terminals and CI logs.
const hostile = hostiletext.Name

// assertInert fails when what a command wrote holds what a terminal or a CI runner would act
// on.
func assertInert(t *testing.T, where, s string) {
	t.Helper()
	if p := hostiletext.Problem(s); p != "" {
		t.Errorf("%s holds %s:\n%q", where, p, s)
	}
}

// A target whose queue is named hostile, one whose error page is hostile, and a Prometheus
// whose warning is hostile: the table, the errors and the warnings show it escaped.
func TestHostileServerTextIsInert(t *testing.T) {
	label := strings.ReplaceAll(hostile, "\n", `\n`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			fmt.Fprintf(w, "workqueue_depth{name=\"%s\"} 3\nworkqueue_adds_total{name=\"%s\"} 7\n", label, label)
		case "/fail":
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, "failed: "+hostile)
		case "/api/v1/query":
			if q := r.FormValue("query"); strings.HasPrefix(q, "{") && strings.HasSuffix(q, "]") {
				// The raw samples of a range: a matrix, here of nothing.
				fmt.Fprint(w, `{"status":"success","data":{"resultType":"matrix","result":[]}}`)
				return
			}
			warning, _ := json.Marshal("store down: " + hostile)
			name, _ := json.Marshal(hostile)
			fmt.Fprintf(w, `{"status":"success","warnings":[%s],"data":{"resultType":"vector","result":[`+
				`{"metric":{"__name__":"workqueue_depth","job":"op","instance":"10.0.0.1:8080","namespace":"ns","pod":"op-0","name":%s},"value":[1700000000,"3"]}]}}`,
				warning, name)
		}
	}))
	defer srv.Close()
	for _, output := range []string{"", "wide"} {
		out, errOut, err := runQueues(t, "", "--url", srv.URL+"/metrics", "--url", srv.URL+"/fail", "--interval", "0", "-o", output)
		if code, _ := cli.CodeFor(err); code != cli.ExitError {
			t.Fatalf("exit %d (%v), want 1: /fail failed", code, err)
		}
		assertInert(t, "stdout", out)
		assertInert(t, "stderr", errOut)
		if !strings.Contains(out, `q\x1b]0;pwned\x07\n::error`) || !strings.Contains(errOut, `failed: q\x1b]0;pwned`) {
			t.Errorf("not shown escaped:\n%s\n%s", out, errOut)
		}
	}
	_, errOut, err := runQueues(t, "", "--prometheus", srv.URL)
	assertInert(t, "stderr with --prometheus", errOut)
	if err != nil {
		assertInert(t, "the error with --prometheus", err.Error())
	}
	if !strings.Contains(errOut, `store down: q\x1b]0;pwned`) {
		t.Errorf("the warning is not shown escaped: %q (%v)", errOut, err)
	}
}
