package collect

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// answer is a transport that answers every GET with one status, content type and body, and
// keeps the Accept header it was sent.
type answer struct {
	code        int
	contentType string
	body        string
	accept      string
}

func (a *answer) Get(_ context.Context, _ target.Target, h http.Header) (*http.Response, error) {
	a.accept = h.Get("Accept")
	return &http.Response{StatusCode: a.code, Header: http.Header{"Content-Type": {a.contentType}},
		Body: io.NopCloser(strings.NewReader(a.body))}, nil
}

// kube-controller-manager 1.36's structured /flagz, cut to a few flags: only the knobs'
// flags are kept, never the paths beside them; each refusal says how to get them.
func TestFetchFlagz(t *testing.T) {
	const flagz = `{"kind":"Flagz","apiVersion":"config.k8s.io/v1beta1","metadata":{"name":"kube-controller-manager"},
"flags":{"concurrent-deployment-syncs":"3","kube-api-qps":"20","cluster-signing-key-file":"/etc/kubernetes/pki/ca.key"}}`
	const json = "application/json;g=config.k8s.io;v=v1beta1;as=Flagz"
	keep := []string{"concurrent-deployment-syncs", "kube-api-qps", "kube-api-burst"}
	proxy := target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257, Scheme: "https", Path: "/flagz", Via: target.ViaProxy}
	forward := proxy
	forward.Via = target.ViaPortForward

	a := &answer{code: 200, contentType: json, body: flagz}
	f := fetchFlagz(context.Background(), a, forward, keep, 0, "")
	if f.Note != "" || len(f.Values) != 2 || f.Values["concurrent-deployment-syncs"] != "3" || f.Values["kube-api-qps"] != "20" {
		t.Errorf("read: %+v", f)
	}
	if !strings.HasPrefix(a.accept, "application/json;as=Flagz") {
		t.Errorf("asked for %q, not the structured object", a.accept)
	}
	if f.Endpoint != "kube-system/kcm:10257/flagz" {
		t.Errorf("endpoint %q", f.Endpoint)
	}

	for _, tc := range []struct {
		name string
		a    *answer
		t    target.Target
		want string
	}{
		{"proxy refuses", &answer{code: 403, body: "forbidden"}, proxy, "403 Forbidden: /flagz demands credentials, which the API server's proxy never forwards (--token-from-sa"},
		{"token refused", &answer{code: 403}, forward, "403 Forbidden: may not get /flagz"},
		{"older process", &answer{code: 404}, forward, "404 Not Found: no /flagz"},
		{"text only", &answer{code: 200, contentType: "text/plain", body: "\nkube-controller-manager flagz\nkube-api-qps=20\n"}, forward, "not a Flagz object"},
		{"another object", &answer{code: 200, contentType: "application/json", body: `{"kind":"Status","flags":{"kube-api-qps":"1"}}`}, forward, "not a Flagz object"},
		{"huge", &answer{code: 200, contentType: "application/json", body: strings.Repeat(" ", maxFlagzBytes+10)}, forward, "over 1 MiB"},
	} {
		f := fetchFlagz(context.Background(), tc.a, tc.t, keep, 0, "")
		if f.Values != nil || !strings.Contains(f.Note, tc.want) {
			t.Errorf("%s: %+v, want a note with %q", tc.name, f, tc.want)
		}
	}

	long := strings.Replace(flagz, `"3"`, `"`+strings.Repeat("9", 100)+`"`, 1)
	if f := fetchFlagz(context.Background(), &answer{code: 200, contentType: json, body: long}, forward, keep, 0, ""); f.Values["concurrent-deployment-syncs"] != "" {
		t.Errorf("a 100-byte value kept: %q", f.Values["concurrent-deployment-syncs"])
	}
}
