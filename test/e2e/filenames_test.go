//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyPage copies a saved page of testdata/pages to path.
func copyPage(t *testing.T, page, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.root, "testdata/pages", page))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Saved pages are targets named by their base name, a pair by its AFTER page, or by the
// NAME= given; two pages of one base name get names that tell them apart; a NAME given
// twice is a usage error naming --from-file.
func TestFileTargetNames(t *testing.T) {
	crowd(t)
	dir := t.TempDir()
	cr1 := copyPage(t, "controller-runtime-1.prom", filepath.Join(dir, "cr", "controller-runtime-1.prom"))
	cr2 := copyPage(t, "controller-runtime-2.prom", filepath.Join(dir, "cr", "controller-runtime-2.prom"))
	a := copyPage(t, "controller-runtime-2.prom", filepath.Join(dir, "a", "metrics.prom"))
	b := copyPage(t, "controller-runtime-2.prom", filepath.Join(dir, "b", "metrics.prom"))
	l, r := queuesJSON(t, "--from-file", cr1+","+cr2, "--from-file", "widgets="+cr1+","+cr2,
		"--from-file", a, "--from-file", b, "--interval", "10s")
	if r.Code != 0 {
		t.Fatalf("queues:\n%s", r)
	}
	got := map[string]bool{}
	for _, it := range l.Items {
		got[it.Target] = true
	}
	for _, want := range []string{"controller-runtime-2.prom", "widgets", "a/metrics.prom", "b/metrics.prom"} {
		if !got[want] {
			t.Errorf("no target named %q among %v", want, got)
		}
	}
	if len(got) != 4 || strings.Contains(r.Stdout, dir) {
		t.Errorf("targets %v: want the four names above and no full path", got)
	}

	r = ctrldiag(t, "queues", "--from-file", "x="+cr2, "--from-file", "x="+a)
	if r.Code != 2 || !strings.Contains(r.Stderr, `--from-file: the name "x" is given to two targets`) {
		t.Errorf("one NAME for two targets: want exit 2 naming --from-file\n%s", r)
	}
}

// diff matches two snapshots of saved pages of one controller whatever the pages were
// called, and does not match pages of another controller.
func TestDiffMatchesSnapshotsOfSavedPages(t *testing.T) {
	crowd(t)
	dir := t.TempDir()
	pages := filepath.Join(env.root, "testdata/pages")
	before := snapOf(t, dir, "before", filepath.Join(pages, "controller-runtime-1.prom")+","+filepath.Join(pages, "controller-runtime-2.prom"))
	after := snapOf(t, dir, "after",
		copyPage(t, "controller-runtime-1.prom", filepath.Join(dir, "later-1.prom"))+","+copyPage(t, "controller-runtime-2.prom", filepath.Join(dir, "later-2.prom")))
	other := snapOf(t, dir, "other", filepath.Join(pages, "kube-controller-manager-1.prom.gz")+","+filepath.Join(pages, "kube-controller-manager-2.prom.gz"))

	type diffDoc struct {
		Queues   []struct{ Controller, Queue, Change string }
		Appeared []struct{ Check string }
		Resolved []struct{ Check string }
	}
	diffOf := func(b, a string) diffDoc {
		r := ctrldiag(t, "diff", b, a, "-o", "json")
		var d diffDoc
		if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &d) != nil {
			t.Fatalf("diff %s %s:\n%s", b, a, r)
		}
		return d
	}
	if d := diffOf(before, after); len(d.Queues)+len(d.Appeared)+len(d.Resolved) != 0 {
		t.Errorf("the same pages under other names differ: %+v", d)
	}
	d := diffOf(before, other)
	gone, appeared := 0, 0
	for _, q := range d.Queues {
		switch q.Change {
		case "gone":
			gone++
		case "appeared":
			appeared++
		}
	}
	if gone == 0 || appeared == 0 || len(d.Resolved) == 0 {
		t.Errorf("controller-runtime -> kube-controller-manager pages: %d queues gone, %d appeared, %d findings resolved; want all > 0",
			gone, appeared, len(d.Resolved))
	}
}

// snapOf takes a snapshot of one --from-file value as DIR/NAME.tar.gz.
func snapOf(t *testing.T, dir, name, files string) string {
	t.Helper()
	f := filepath.Join(dir, name+".tar.gz")
	r := ctrldiag(t, "snapshot", "-f", f, "--interval", "10s", "--from-file", files)
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("snapshot %s:\n%s", name, r)
	}
	return f
}
