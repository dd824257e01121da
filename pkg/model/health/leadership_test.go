package health

import (
	"fmt"
	"math"
	"testing"
)

// The one rule: a process leads when it leads any of its leases, stands by when it reports
// leases and leads none, and is unknown without a series; the queue rows say the same.
func TestLeadershipOfSeveralLeases(t *testing.T) {
	queue := "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"widget\"} 0\n"
	series := func(lease, v string) string {
		return fmt.Sprintf("leader_election_master_status{name=%q} %s\n", lease, v)
	}
	for _, c := range []struct {
		name, page    string
		role          Role
		leads, stands string
		status        float64
	}{
		{"no series", queue, RoleUnknown, "", "", math.NaN()},
		{"one lease led", queue + series("a", "1"), RoleLeader, "[a]", "", 1},
		{"one lease stood by", queue + series("a", "0"), RoleStandby, "", "[a]", 0},
		{"leads one of two", queue + series("b", "0") + series("a", "1"), RoleLeader, "[a]", "[b]", 1},
		{"leads none of two", queue + series("b", "0") + series("a", "0"), RoleStandby, "", "[a b]", 0},
		{"leads both", queue + series("b", "1") + series("a", "1"), RoleLeader, "[a b]", "", 1},
	} {
		s := loadText(t, "# TYPE leader_election_master_status gauge\n"+c.page)
		l := s.Leadership()
		if l.Role != c.role || list(l.Leads) != c.leads || list(l.Stands) != c.stands || !same(l.Status(), c.status) {
			t.Errorf("%s: %+v (status %v), want %s leading %s standing by %s (%v)", c.name, l, l.Status(), c.role, c.leads, c.stands, c.status)
		}
		rows := Queues("t", nil, s, 0)
		if len(rows) != 1 || !same(rows[0].Leader, c.status) {
			t.Errorf("%s: queue rows %+v, want Leader %v", c.name, rows, c.status)
		}
	}
	var none *Snapshot
	if l := none.Leadership(); l.Role != RoleUnknown || !math.IsNaN(l.Status()) {
		t.Errorf("nil snapshot: %+v, want unknown", l)
	}
}

func list(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprint(s)
}
