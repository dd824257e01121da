package goroutines

import (
	"compress/gzip"
	"os"
	"testing"
)

// A real dump of cert-manager v1.21.2 (--concurrent-workers=3) whose ACME Issuers' server
// never answers: its 3 issuers workers wait in the ACME client's request, a minute so far;
// the workers of its other controllers are idle in their queues' Get.
func TestCertManagerWorkersAreNamedByTheirController(t *testing.T) {
	f, err := os.Open("testdata/cert-manager-acme-hang.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseWorkers(z, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	p := NewProfile(d)
	if p.Goroutines != 328 || p.Workers != 3 || len(p.Groups) != 1 {
		t.Fatalf("profile: %d goroutines, %d workers, %d groups", p.Goroutines, p.Workers, len(p.Groups))
	}
	g := p.Groups[0]
	if g.Controller != "issuers" || g.Count != 3 || g.LongWaits != 3 || g.Wait.Func != "net/http.(*Transport).RoundTrip" ||
		g.Own.Func != "github.com/cert-manager/cert-manager/pkg/acme/client.(*Transport).RoundTrip" {
		t.Errorf("group: controller %q, %d workers, %d a minute or more, wait %s, own %s", g.Controller, g.Count, g.LongWaits, g.Wait.Func, g.Own.Func)
	}
}

// The controller a cert-manager worker runs is named as cert-manager names it.
func TestControllerOf(t *testing.T) {
	worker := Frame{Func: certManagerWorker}
	for pkg, want := range map[string]string{
		"issuers":                               "issuers",
		"acmeorders":                            "orders",
		"acmechallenges":                        "challenges",
		"certificates/issuing":                  "certificates-issuing",
		"certificates/keymanager":               "certificates-key-manager",
		"certificaterequests/acme":              "certificaterequests-issuer-acme",
		"certificaterequests/approver":          "certificaterequests-approver",
		"certificatesigningrequests/selfsigned": "certificatesigningrequests-issuer-selfsigned",
		"certificate-shim/ingresses":            "ingress-shim",
	} {
		fs := []Frame{{Func: "net/http.(*Client).Do"}, {Func: certManagerControllers + pkg + ".(*controller).Sync"},
			{Func: certManagerControllers + pkg + ".(*controller).ProcessItem"}, {Func: certManagerWorker + ".func1"}, worker}
		if got := controllerOf(fs); got != want {
			t.Errorf("%s: %q, want %q", pkg, got, want)
		}
	}
	if got := controllerOf([]Frame{{Func: "main.(*r).Reconcile"}, {Func: "k8s.io/client-go/util/workqueue.processNextWorkItem"}}); got != "" {
		t.Errorf("a stack that names no controller: %q", got)
	}
}
