package redact

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/dualserver"
)

// plainSeen records the Authorization headers that arrived over plain HTTP.
type plainSeen struct {
	mu   sync.Mutex
	auth []string
}

func (p *plainSeen) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.auth = append(p.auth, s)
}

func (p *plainSeen) any() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range p.auth {
		if a != "" {
			return true
		}
	}
	return false
}

// One port serving HTTPS and HTTP: /down sends an HTTPS client to http:// on the same host and
// port, /same to another path over HTTPS, /away to another port; /ok answers.
func redirecting(t *testing.T) (string, *http.Client, *plainSeen, *httptest.Server) {
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(other.Close)
	seen := &plainSeen{}
	base, client := dualserver.Start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			seen.add(r.Header.Get("Authorization"))
		}
		switch r.URL.Path {
		case "/down":
			http.Redirect(w, r, "http://"+r.Host+"/ok", http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/ok", http.StatusFound)
		case "/away":
			http.Redirect(w, r, other.URL+"/ok", http.StatusFound)
		}
	}))
	return base, client, seen, other
}

func get(t *testing.T, client *http.Client, url, auth string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := client.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

func TestCredentialsNeverFollowADowngradeOrAnotherPort(t *testing.T) {
	base, client, seen, other := redirecting(t)
	client.CheckRedirect = CheckRedirect(false)

	_, err := get(t, client, base+"/down", "Bearer redirect-token-1")
	var refused *RedirectRefusedError
	if !errors.As(err, &refused) || !refused.Downgrade ||
		!strings.Contains(err.Error(), "refused redirect from "+base+"/down to http://"+strings.TrimPrefix(base, "https://")+"/ok: it would send the credentials") {
		t.Errorf("downgrade: %v", err)
	}
	if seen.any() {
		t.Errorf("credentials crossed in plain HTTP: %v", seen.auth)
	}

	_, err = get(t, client, base+"/away", "Bearer redirect-token-1")
	if !errors.As(err, &refused) || refused.Downgrade || !strings.Contains(err.Error(), "to another host or port") {
		t.Errorf("another port: %v", err)
	}

	if resp, err := get(t, client, base+"/same", "Bearer redirect-token-1"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("same host and port: %v", err)
	}

	// Credentials the request does not show (custom headers, a transport's own) count too.
	client.CheckRedirect = CheckRedirect(true)
	if _, err := get(t, client, base+"/down", ""); !errors.As(err, &refused) {
		t.Errorf("declared credentials: %v", err)
	}

	// Without credentials: a downgrade is harmless, another host is not followed.
	client.CheckRedirect = CheckRedirect(false)
	if resp, err := get(t, client, base+"/away", ""); err != nil || resp.StatusCode != http.StatusFound {
		t.Errorf("another host without credentials: %v %v (%s)", resp, err, other.URL)
	}
}

func TestRefusedErrorHidesCredentialsOfTheURLs(t *testing.T) {
	base, client, _, _ := redirecting(t)
	client.CheckRedirect = CheckRedirect(false)
	u := strings.Replace(base, "https://", "https://frank:redirect-pass-2@", 1) + "/down?token=redirect-token-2"
	_, err := get(t, client, u, "")
	if err == nil || strings.Contains(err.Error(), "redirect-pass-2") || strings.Contains(err.Error(), "redirect-token-2") {
		t.Errorf("error %v", err)
	}
}
