package sourceflags

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
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
	authFile := filepath.Join(t.TempDir(), "auth")
	if err := os.WriteFile(authFile, []byte("carol:file-pass-77\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/json", "/html"} {
		for _, c := range []struct {
			name  string
			url   string
			with  func(*Flags)
			leaks []string
		}{
			{"bearer token", srv.URL + path, func(f *Flags) { f.Prom.BearerToken = "prom-bearer-77" + path }, []string{"prom-bearer-77" + path}},
			{"header", srv.URL + path, func(f *Flags) {
				f.Prom.Headers = []string{"X-Api-Key=hdr-value-77" + path, "X-Scope-OrgID=tenant-77" + path}
			}, []string{"hdr-value-77" + path, "tenant-77" + path}},
			{"basic auth file", srv.URL + path, func(f *Flags) { f.Prom.BasicAuth = authFile }, []string{"file-pass-77", b64("carol:file-pass-77")}},
			{"user:pass@ in the URL", strings.Replace(srv.URL, "http://", "http://dave:url-pass-77"+path[1:]+"@", 1) + path, func(*Flags) {},
				[]string{"url-pass-77" + path[1:], b64("dave:url-pass-77" + path[1:])}},
		} {
			f := promFlags(c.url)
			c.with(&f)
			r, err := f.Resolve(&globals.Flags{}, nil, nil)
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

// The usage error of a --prometheus URL with a query shows no credential-looking value.
func TestPrometheusURLUsageErrorHidesQueryCredentials(t *testing.T) {
	for _, raw := range []string{
		"http://prom:9090/?token=query-tok-77&access_token=query-tok-78&step=1",
		"http://erin:url-pass-78@prom:9090/?apikey=query-tok-79",
		"prom:9090?password=query-tok-80",
	} {
		f := promFlags(raw)
		_, err := f.Resolve(&globals.Flags{}, nil, nil)
		if err == nil {
			t.Fatalf("%s: no error", raw)
		}
		for _, leak := range []string{"query-tok-", "url-pass-78"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("the usage error shows %q: %s", leak, err)
			}
		}
	}
}
