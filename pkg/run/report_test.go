package run

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// `report` keeps the families that tell a well-known controller, so that a page read without
// its pod (--url, --from-file) is still recognised; it does not keep a controller's other
// families.
func TestReportKeepsTheFamiliesThatTellAController(t *testing.T) {
	page := `# TYPE certmanager_clock_time_seconds_gauge gauge
certmanager_clock_time_seconds_gauge 1.7e+09
# TYPE certmanager_certificate_expiration_timestamp_seconds gauge
certmanager_certificate_expiration_timestamp_seconds{name="a",namespace="b"} 1.8e+09
# TYPE workqueue_depth gauge
workqueue_depth{name="challenges"} 3
`
	p, err := parse.Parse("cert-manager", strings.NewReader(page), reportFamilies)
	if err != nil {
		t.Fatal(err)
	}
	s := health.FromFamilies(p.Families, time.Time{})
	if !s.Families["certmanager_clock_time_seconds_gauge"] || s.Families["certmanager_certificate_expiration_timestamp_seconds"] {
		t.Errorf("families kept: %v", s.Families)
	}
	if m, ok := knobs.Recognise(knobs.Seen{Families: s.Families}); !ok || m.Controller.Title != "cert-manager" {
		t.Errorf("recognised %+v %v, want cert-manager", m, ok)
	}
}
