package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// The Warning events are listed under section 6, newest first, with their object, reason,
// count, age and message, escaped in every format; what kept some from being read is said.
func TestWarningEventsUnderTheObjects(t *testing.T) {
	r := view.Report{GeneratedAt: fixtureNow, Objects: &objects.View{}, WarningEvents: &events.View{
		Since: fixtureNow.Add(-5 * time.Minute), Namespaces: []string{""}, Read: 7,
		Groups: []events.Group{
			{Reason: "FailedCreate", Kind: "ReplicaSet", Object: "shop/web", Count: 12, LastSeen: fixtureNow.Add(-20 * time.Second),
				Message: `pods "web-x" is forbidden: exceeded quota: no-pods`, Controllers: []string{"kube-system/kcm replicaset"}},
			{Reason: hostile, Kind: "Widget", Object: "shop/" + hostile, Count: 1, LastSeen: fixtureNow.Add(-time.Minute),
				Message: hostile, Controllers: []string{"ops/op:8080 widget"}},
		},
		Notes: []string{"the Warning events in namespace ops were not read: needs RBAC verb list on events in namespace ops"}}}
	for _, format := range []string{"text", "wide", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, format, r); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		assertInert(t, "report -o "+format, out)
		wants := []string{"Warning events by reason and object", "FailedCreate", "shop/web", "exceeded quota: no-pods", "20s ago",
			"needs RBAC verb list on events in namespace ops", "in all namespaces"}
		if format == "text" { // 80 columns: the time left out; the hostile names make records
			wants = []string{"Warning events by reason and object", "FailedCreate", "shop/web", "exceeded quota: no-pods",
				"needs RBAC verb list on events in namespace ops"}
		}
		for _, want := range wants {
			if !strings.Contains(out, want) && !strings.Contains(strings.Join(strings.Fields(out), " "), want) { // notes wrap
				t.Errorf("-o %s lacks %q:\n%s", format, want, out)
			}
		}
		if strings.Index(out, "shop/web") > strings.Index(out, "Widget") {
			t.Errorf("-o %s: the newest group is not first:\n%s", format, out)
		}
	}
}
