package scrape

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/dualserver"
)

// An https:// target that redirects to http:// on the same host and port: the redirect is
// refused, and the token never crosses in plain text.
func TestURLSourceRefusesRedirectToPlainHTTPWithToken(t *testing.T) {
	var mu sync.Mutex
	var plain []string
	base, _ := dualserver.Start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			mu.Lock()
			plain = append(plain, r.Header.Get("Authorization"))
			mu.Unlock()
			_, _ = w.Write([]byte(page))
			return
		}
		http.Redirect(w, r, "http://"+r.Host+"/metrics", http.StatusFound)
	}))
	src := newSource(t, base+"/redirect", nil, HTTPConfig{Token: secret, InsecureSkipVerify: true})
	_, err := fetchAll(t, src, 5*time.Second)
	want := "refused redirect from " + base + "/redirect to http://" + strings.TrimPrefix(base, "https://") + "/metrics: it would send the credentials"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %q", err, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(plain) > 0 {
		t.Errorf("requests arrived over plain HTTP, Authorization %q", plain)
	}
}
