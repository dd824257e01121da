package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// A target whose page is empty, or holds only comments, is a target that could not be read
// (its own error, saying so), live or saved; it is not a target that "serves metrics but no
// workqueue_* series". The other targets read as usual.
func TestEmptyPageIsATargetError(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "comments.prom")
	if err := os.WriteFile(saved, []byte("# HELP workqueue_depth Depth.\n# TYPE workqueue_depth gauge\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pod := func(name string) target.Target {
		return target.Target{Kind: target.KindPod, Namespace: "ops", Name: name, Port: 8080, Via: target.ViaProxy}
	}
	sources := []scrape.Source{
		&scrape.ClusterSource{Endpoint: pod("empty"), Transport: fallbackAnswer{200, "text/plain; version=0.0.4", ""}},
		&scrape.FileSource{Paths: []string{saved}},
		&scrape.ClusterSource{Endpoint: pod("good"), Transport: fallbackAnswer{200, "text/plain; version=0.0.4", "workqueue_depth{name=\"q\"} 1\n"}},
	}
	rs := Collect(context.Background(), sources, source.Options{Timeout: time.Second, Keep: health.WantedQueues})
	for i, want := range []string{"the page is empty: is this the metrics port?", "the page holds only comments, no samples: is this the metrics port?"} {
		if r := rs[i]; r.Err == nil || !strings.Contains(r.Err.Error(), want) || len(r.Samples) != 0 {
			t.Errorf("target %d: %d samples, error %v, want one containing %q", i, len(r.Samples), r.Err, want)
		}
	}
	if r := rs[2]; r.Err != nil || len(r.Samples) != 1 {
		t.Errorf("the good target: %d samples, %v", len(r.Samples), r.Err)
	}
}
