package scrape

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// A --url target with user:password@ and a token in its query that fails with a 500 echoing
// the request (its Authorization header, its query) and terminal escapes: the error quotes a
// bounded excerpt of the body with none of the credentials, in no form, and no raw control.
func TestURLSourceErrorBodyHidesCredentialsAndEscapes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		u, p, _ := r.BasicAuth()
		_, _ = w.Write([]byte("boom for " + r.Header.Get("Authorization") + " (" + u + ":" + p + ") query " + r.URL.RawQuery +
			"\x1b]0;pwned\x07\x1b[2J\n::error file=x::pwned\n" + strings.Repeat("padding ", 200)))
	}))
	defer srv.Close()
	const pass, qtoken = "url-body-pass-9", "url-query-token-9"
	raw := strings.Replace(srv.URL, "http://", "http://alice:"+pass+"@", 1) + "/metrics?token=" + qtoken + "&x=1"
	src := newSource(t, raw, nil, HTTPConfig{})
	if name := src.Name(); strings.Contains(name, pass) || strings.Contains(name, qtoken) || !strings.Contains(name, "token=xxxxx&x=1") {
		t.Errorf("name %s", name)
	}
	_, err := fetchAll(t, src, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "500 Internal Server Error: the endpoint failed") {
		t.Fatalf("error = %v", err)
	}
	msg := err.Error()
	b64 := base64.StdEncoding.EncodeToString([]byte("alice:" + pass))
	for _, leak := range []string{pass, qtoken, b64} {
		if strings.Contains(msg, leak) {
			t.Errorf("the error shows %q: %s", leak, msg)
		}
	}
	if strings.ContainsAny(msg, "\x1b\x07\n") {
		t.Errorf("raw controls in the error: %q", msg)
	}
	if !strings.Contains(msg, `\x1b]0;pwned\x07`) || len(msg) > 200+redact.ExcerptBytes {
		t.Errorf("the body is not a bounded, escaped excerpt (%d bytes): %s", len(msg), msg)
	}
}
