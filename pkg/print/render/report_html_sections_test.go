package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Every section of a report, those shown only when read (goroutines, logs) and the fleet's
// included, has its own anchor on the HTML page and a link to it; none is left out or shifted.
func TestReportHTMLAnchorsEverySection(t *testing.T) {
	r := view.Report{Summary: view.Summary{Verdict: "ok", Read: 2},
		Goroutines: []view.Goroutines{{Target: "shop/op-0:8080", Reason: "not read: no pprof endpoint"}},
		Logs:       []view.Log{{Target: "shop/op-0:8080", Log: logs.Log{Note: "not read: no logs found for container main"}}},
		Fleet:      []view.ClusterSummary{{Cluster: "east"}, {Cluster: "west"}},
	}
	var out bytes.Buffer
	if err := Write(&out, "html", r); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, id := range []string{"fleet", "pods", "backlog", "cache", "events", "resources", "objects", "capacity", "slis", "goroutines", "logs"} {
		if !strings.Contains(s, `<section id="`+id+`">`) || !strings.Contains(s, `href="#`+id+`"`) {
			t.Errorf("the HTML page has no section or link %q", id)
		}
	}
}
