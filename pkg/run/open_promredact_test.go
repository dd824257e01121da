package run

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// A Prometheus that answers 401 echoing the request's Authorization and custom headers, in
// its API error and in an HTML page: no credential shows in the error, in no form (raw,
// base64, "Basic <base64>"), and neither do the terminal escapes it adds.
func TestPrometheusErrorsNeverShowCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echo := fmt.Sprintf("you sent Authorization=%s X-Api-Key=%s X-Scope-OrgID=%s \x1b]0;pwned\x07",
			r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"), r.Header.Get("X-Scope-OrgID"))
		if r.URL.Query().Get("html") != "" || strings.Contains(r.URL.Path, "/html") {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = fmt.Fprintf(w, "<html><body>%s</body></html>", echo)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		msg, _ := json.Marshal(echo)
		_, _ = fmt.Fprintf(w, `{"status":"error","errorType":"unauthorized","error":%s}`, msg)
	}))
	defer srv.Close()
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, path := range []string{"/json", "/html"} {
		for _, c := range []struct {
			name  string
			url   string
			with  func(*Prometheus)
			leaks []string
		}{
			{"bearer token", srv.URL + path, func(p *Prometheus) { p.Token = "prom-bearer-77" + path }, []string{"prom-bearer-77" + path}},
			{"header", srv.URL + path, func(p *Prometheus) {
				p.Headers = map[string]string{"X-Api-Key": "hdr-value-77" + path, "X-Scope-OrgID": "tenant-77" + path}
			}, []string{"hdr-value-77" + path, "tenant-77" + path}},
			{"basic auth", srv.URL + path, func(p *Prometheus) { p.User, p.Password = "carol", "file-pass-77" }, []string{"file-pass-77", b64("carol:file-pass-77")}},
			{"user:pass@ in the URL", strings.Replace(srv.URL, "http://", "http://dave:url-pass-77"+path[1:]+"@", 1) + path, func(*Prometheus) {},
				[]string{"url-pass-77" + path[1:], b64("dave:url-pass-77" + path[1:])}},
		} {
			s := promSpec(c.url)
			c.with(&s.Prometheus)
			r, err := Open(s, Inputs{}, source.Clock{})
			if err != nil {
				t.Fatalf("%s %s: %v", path, c.name, err)
			}
			_, err = r.Source.Open(context.Background())
			if err == nil || !strings.Contains(err.Error(), "401") || (path == "/json") != strings.Contains(err.Error(), "unauthorized: you sent") {
				t.Fatalf("%s %s: error %v", path, c.name, err)
			}
			for _, leak := range c.leaks {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("%s %s: the error shows %q: %s", path, c.name, leak, err)
				}
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07") {
				t.Errorf("%s %s: raw controls: %q", path, c.name, err)
			}
		}
	}
}
