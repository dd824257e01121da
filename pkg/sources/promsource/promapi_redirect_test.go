package promsource

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/dualserver"
)

// An https:// Prometheus that redirects to http:// on the same host and port: the client
// refuses the redirect whatever the credentials (bearer token, basic auth, a custom header),
// and none crosses in plain text.
func TestRedirectToPlainHTTPIsRefused(t *testing.T) {
	var mu sync.Mutex
	var plain []http.Header
	base, _ := dualserver.Start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			mu.Lock()
			plain = append(plain, r.Header.Clone())
			mu.Unlock()
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`))
			return
		}
		http.Redirect(w, r, "http://"+r.Host+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	for name, cfg := range map[string]ClientConfig{
		"token":      {Token: "redirect-token-3"},
		"basic auth": {User: "gina", Password: "redirect-pass-3"},
		"header":     {Headers: map[string]string{"X-Api-Key": "redirect-key-3"}},
	} {
		cfg.URL, cfg.Insecure, cfg.Timeout, cfg.GET = base, true, 2*time.Second, true
		c, err := NewClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Query(context.Background(), "up", time.Now())
		want := "refused redirect from " + base + "/api/v1/query?"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "it would send the credentials") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(plain) > 0 {
		t.Errorf("requests arrived over plain HTTP: %v", plain)
	}
}
