package logs

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 26, 11, 1, 0, 0, time.UTC)

func parseFile(t *testing.T, name string, o Options) *Log {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if o.Now.IsZero() {
		o.Now = now
	}
	return Parse(f, o)
}

func TestZap(t *testing.T) {
	l := parseFile(t, "zap.log", Options{})
	if len(l.Failures) != 2 || l.Dropped != 0 {
		t.Fatalf("failures %+v", l.Failures)
	}
	newest, first := l.Failures[0], l.Failures[1]
	if first.Controller != "configmap" || first.Object != "shop/app-config" || first.Count != 2 ||
		first.Error != "backend refused shop/app-config: 503 Service Unavailable" || !first.Last.Equal(time.Date(2026, 11, 26, 11, 0, 4, 2e8, time.UTC)) {
		t.Errorf("app-config: %+v", first)
	}
	// The object from the field named after the kind; the message escaped and its credential masked.
	if newest.Object != "shop/feature-flags" || strings.ContainsRune(newest.Error, 0x1b) || strings.Contains(newest.Error, "abcdefgh12345678") ||
		!strings.Contains(newest.Error, `\x1b[31m`) {
		t.Errorf("feature-flags: %+v", newest)
	}
	if th := l.Throttling; th == nil || th.Count != 2 || th.LongestSeconds != 2.5 {
		t.Errorf("throttling %+v", th)
	}
	if len(l.Panics) != 1 {
		t.Fatalf("panics %+v", l.Panics)
	}
	p := l.Panics[0]
	want := []string{"example.com/op/internal/controller.(*WidgetReconciler).owner", "example.com/op/internal/controller.(*WidgetReconciler).Reconcile",
		"sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller).Reconcile"}
	if p.Controller != "widget" || p.Message != "runtime error: invalid memory address or nil pointer dereference" || strings.Join(p.Frames, " ") != strings.Join(want, " ") {
		t.Errorf("panic %+v", p)
	}
	if l.LeaderLost == nil || l.LeaderLost.Count != 1 || l.LeaderLost.Message != "problem running manager: leader election lost" {
		t.Errorf("leader lost %+v", l.LeaderLost)
	}
	if l.Lines != 8 || l.Bytes == 0 {
		t.Errorf("%d lines, %d bytes", l.Lines, l.Bytes)
	}
}

func TestKlog(t *testing.T) {
	l := parseFile(t, "klog.log", Options{})
	if len(l.Failures) != 2 {
		t.Fatalf("failures %+v", l.Failures)
	}
	if f := l.Failures[1]; f.Controller != "configmap" || f.Object != "shop/app-config" || f.Error != "backend refused: 503" || f.Count != 1 {
		t.Errorf("configmap: %+v", f)
	}
	if f := l.Failures[0]; f.Controller != "secret" || f.Object != "ops/db-pass" || f.Error != "quota exceeded" {
		t.Errorf("secret: %+v", f)
	}
	if th := l.Throttling; th == nil || th.Count != 2 || th.LongestSeconds != 3.25 || !th.Last.Equal(time.Date(2026, 11, 26, 11, 0, 5, 0, time.UTC)) {
		t.Errorf("throttling %+v", th)
	}
	if l.LeaderLost == nil || l.LeaderLost.Count != 1 {
		t.Errorf("leader lost %+v", l.LeaderLost)
	}
	if len(l.CacheSyncTimeouts) != 1 || l.CacheSyncTimeouts[0].Count != 1 {
		t.Errorf("cache sync timeouts %+v", l.CacheSyncTimeouts)
	}
	if len(l.Panics) != 1 || l.Panics[0].Message != `"assignment to entry in nil map" (assignment to entry in nil map)` ||
		strings.Join(l.Panics[0].Frames, " ") != "example.com/ctl/pkg/sync.(*syncer).apply example.com/ctl/pkg/sync.(*syncer).processNextWorkItem" {
		t.Errorf("panics %+v", l.Panics)
	}
}

func TestLogfmtAndCrash(t *testing.T) {
	l := parseFile(t, "logfmt.log", Options{})
	if len(l.Failures) != 1 || l.Failures[0].Object != "web/frontend" || l.Failures[0].Controller != "service" || l.Failures[0].Error != "port 80 already allocated" {
		t.Errorf("failures %+v", l.Failures)
	}
	if len(l.CacheSyncTimeouts) != 1 || l.CacheSyncTimeouts[0].Controller != "service" {
		t.Errorf("cache sync timeouts %+v", l.CacheSyncTimeouts)
	}
	if l.Throttling == nil || l.Throttling.Count != 1 || l.Throttling.LongestSeconds != 1.5 {
		t.Errorf("throttling %+v", l.Throttling)
	}
	if len(l.Panics) != 1 || l.Panics[0].Message != "send on closed channel" || strings.Join(l.Panics[0].Frames, " ") != "main.(*pump).flush main.run" {
		t.Errorf("panics %+v", l.Panics)
	}
}

func TestWindow(t *testing.T) {
	// Failures count from Since; the rest only from the window's start.
	from := time.Date(2026, 11, 26, 11, 0, 6, 500e6, time.UTC)
	l := parseFile(t, "zap.log", Options{Since: time.Date(2026, 11, 26, 11, 0, 3, 0, time.UTC), From: from})
	if len(l.Failures) != 2 || l.Failures[1].Count != 1 {
		t.Errorf("failures since 11:00:03: %+v", l.Failures)
	}
	if l.Throttling == nil || l.Throttling.Count != 1 || l.Throttling.LongestSeconds != 2.5 {
		t.Errorf("throttling from 11:00:06.5: %+v", l.Throttling)
	}
	if len(l.Panics) != 1 || l.LeaderLost == nil {
		t.Errorf("panic %+v, leader %+v", l.Panics, l.LeaderLost)
	}
	l = parseFile(t, "zap.log", Options{From: now})
	if l.Throttling != nil || l.Panics != nil || l.LeaderLost != nil || len(l.Failures) != 2 {
		t.Errorf("nothing in the window but failures: %+v", l)
	}
}

func TestHealthy(t *testing.T) {
	in := strings.Join([]string{
		`{"level":"info","ts":"2026-11-26T11:00:01Z","msg":"Starting workers","controller":"widget","worker count":2}`,
		`I1126 11:00:02.000000       1 shared_informer.go:320] Caches are synced for configmap`,
		`I1126 11:00:02.000000       1 shared_informer.go:313] Waiting for caches to sync for configmap`,
		`I1126 11:00:03.000000       1 leaderelection.go:271] successfully acquired lease ops/op-lock`,
		`level=info msg="Reconciled" controller=widget namespace=a name=b`,
		`{"level":"info","msg":"Waited for 0.5s due to APF, not client-side"}`,
	}, "\n")
	l := Parse(strings.NewReader(in), Options{Now: now})
	if l.Failures != nil || l.Throttling != nil || l.Panics != nil || l.LeaderLost != nil || l.CacheSyncTimeouts != nil || l.Lines != 6 {
		t.Errorf("a healthy log gave %+v", l)
	}
}

func TestBounds(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		b.WriteString(`{"level":"error","msg":"Reconciler error","controller":"c","namespace":"n","name":"o` + strings.Repeat("x", i%7) + strconv.Itoa(i) + `","error":"e` + time.Duration(i).String() + "\"}\n")
	}
	b.WriteString(strings.Repeat("y", 200<<10) + "\n")
	b.WriteString(`level=error msg="Reconciler error" controller=c namespace=n name=last error=boom` + "\n")
	l := Parse(strings.NewReader(b.String()), Options{Now: now, LineBytes: 4096})
	if len(l.Failures) != MaxFailures || l.Dropped != 3001-MaxFailures || l.Lines != 3002 {
		t.Errorf("%d failures, %d dropped, %d lines", len(l.Failures), l.Dropped, l.Lines)
	}
}

func TestCRIPartial(t *testing.T) {
	in := "2026-11-26T11:00:02Z stderr P {\"level\":\"error\",\"msg\":\"Reconciler error\",\n" +
		"2026-11-26T11:00:02Z stderr F \"namespace\":\"a\",\"name\":\"b\",\"error\":\"x\"}\n"
	l := Parse(strings.NewReader(in), Options{Now: now})
	if len(l.Failures) != 1 || l.Failures[0].Object != "a/b" || l.Lines != 2 {
		t.Errorf("%+v", l)
	}
}

// kube-controller-manager's failed syncs name their objects and controllers although its
// HandleError logger names none; the garbage collector's line, which names no object key, is
// not a failure.
func TestKubeControllerManager(t *testing.T) {
	l := parseFile(t, "kcm.log", Options{})
	got := map[string]Failure{}
	for _, f := range l.Failures {
		got[f.Controller+" "+f.Object] = f
	}
	if len(got) != 2 {
		t.Fatalf("failures %+v", l.Failures)
	}
	rs, ok := got["replicaset quota-ns/quota-blocked"]
	if !ok || !strings.HasPrefix(rs.Error, `pods \"quota-blocked-`) && !strings.HasPrefix(rs.Error, `pods "quota-blocked-`) || !strings.Contains(rs.Error, "exceeded quota: one-pod") {
		t.Errorf("replicaset: %+v", l.Failures)
	}
	if ss, ok := got["statefulset shop/db"]; !ok || !strings.Contains(ss.Error, "exceeded quota") {
		t.Errorf("statefulset: %+v", l.Failures)
	}
	if n := len(l.FailuresOf("replicaset")); n != len(l.Failures)-1 {
		t.Errorf("FailuresOf(replicaset) = %d, want every failure but the statefulset's", n)
	}
}

func TestLoggerController(t *testing.T) {
	for in, want := range map[string]string{
		"UnhandledError": "", "statefulset-controller.UnhandledError": "statefulset",
		"widget": "widget", "my-controller": "my-controller",
	} {
		if got := loggerController(in); got != want {
			t.Errorf("loggerController(%q) = %q, want %q", in, got, want)
		}
	}
}

// One object's errors are one failure, counted, with the newest error: they often differ
// only in a name the controller generated.
func TestOneFailurePerObject(t *testing.T) {
	in := strings.Join([]string{
		`E1126 11:00:01.000000       1 replica_set.go:562] "Unhandled Error" err="sync \"shop/web\" failed with pods \"web-x7k2\" is forbidden: exceeded quota: no-pods"`,
		`E1126 11:00:03.000000       1 replica_set.go:562] "Unhandled Error" err="sync \"shop/web\" failed with pods \"web-9qzt\" is forbidden: exceeded quota: no-pods"`,
		`E1126 11:00:02.000000       1 replica_set.go:562] "Unhandled Error" err="sync \"shop/api\" failed with pods \"api-1\" is forbidden: exceeded quota: no-pods"`,
	}, "\n")
	l := Parse(strings.NewReader(in), Options{Now: now})
	if len(l.Failures) != 2 {
		t.Fatalf("failures %+v", l.Failures)
	}
	web := l.Failures[0]
	if web.Object != "shop/web" || web.Count != 2 || !strings.Contains(web.Error, "web-9qzt") || web.Last.Second() != 3 {
		t.Errorf("shop/web: %+v", web)
	}
}
