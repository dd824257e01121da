package run

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Only pods and the API server that were read may have a goroutine dump: saved pages and URLs
// are never judged a second time to pick targets to profile.
func TestProfilable(t *testing.T) {
	read := []*health.Snapshot{{}}
	for _, c := range []struct {
		kind target.Kind
		read bool
		want bool
	}{
		{target.KindPod, true, true},
		{target.KindAPIServer, true, true},
		{target.KindPod, false, false},
		{target.KindFile, true, false},
		{target.KindURL, true, false},
	} {
		m := model.Target{}
		m.Target.Kind = c.kind
		if c.read {
			m.Snapshots = read
		}
		if got := profilable(m); got != c.want {
			t.Errorf("profilable(%s, read %v) = %v, want %v", c.kind, c.read, got, c.want)
		}
	}
}
