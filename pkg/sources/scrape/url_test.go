package scrape

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

const secret = "s3cr3t-token-value"

const page = "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n"

// fetchAll fetches src once and reads the whole body.
func fetchAll(t *testing.T, src Source, timeout time.Duration) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p, err := src.Fetch(ctx)
	if err != nil {
		return "", err
	}
	defer p.Body.Close()
	b, err := io.ReadAll(p.Body)
	return string(b), err
}

func newSource(t *testing.T, url string, client *http.Client, cfg HTTPConfig) *URLSource {
	t.Helper()
	if client == nil {
		var err error
		if client, err = NewHTTPClient(cfg); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewURLSource(url, client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestURLSource(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			if !strings.Contains(r.Header.Get("Accept"), "text/plain;version=0.0.4") {
				http.Error(w, "bad accept", http.StatusNotAcceptable)
				return
			}
			io.WriteString(w, page)
		case "/gzip":
			if r.Header.Get("Accept-Encoding") != "gzip" {
				http.Error(w, "no gzip asked", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			io.WriteString(zw, page)
			zw.Close()
		case "/big":
			io.WriteString(w, strings.Repeat("workqueue_depth{name=\"a\"} 1\n", 1000))
		case "/slow":
			io.WriteString(w, "workqueue_depth{name=\"a\"} 1\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "/auth":
			switch r.Header.Get("Authorization") {
			case "":
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
			case "Bearer " + secret:
				io.WriteString(w, page)
			default:
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
			}
		case "/forbidden":
			http.Error(w, "Authorization denied for user system:serviceaccount:x:y", http.StatusForbidden)
		case "/fail":
			// A server that echoes the request's credentials must not leak them into our errors.
			http.Error(w, "internal error for "+r.Header.Get("Authorization"), http.StatusInternalServerError)
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html></html>")
		case "/json":
			// An API that echoes the request's credentials in its answer.
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"auth":"`+r.Header.Get("Authorization")+`","items":[]}`)
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	tests := []struct {
		name    string
		path    string
		cfg     HTTPConfig
		timeout time.Duration
		want    string
		wantErr string
	}{
		{name: "plain http", path: "/metrics", want: page},
		{name: "gzip", path: "/gzip", want: page},
		{name: "oversize body", path: "/big", cfg: HTTPConfig{MaxBodyBytes: 100}, wantErr: "larger than 100 bytes (--max-body-bytes)"},
		{name: "body exactly at the cap", path: "/metrics", cfg: HTTPConfig{MaxBodyBytes: int64(len(page))}, want: page},
		{name: "timeout", path: "/slow", timeout: 300 * time.Millisecond, wantErr: "--timeout"},
		{name: "401 without token", path: "/auth", wantErr: "401 Unauthorized: the endpoint needs a bearer token: pass --token"},
		{name: "401 with wrong token", path: "/auth", cfg: HTTPConfig{Token: "wrong-" + secret}, wantErr: "rejected the bearer token"},
		{name: "token accepted", path: "/auth", cfg: HTTPConfig{Token: secret}, want: page},
		{name: "403", path: "/forbidden", cfg: HTTPConfig{Token: secret}, wantErr: "403 Forbidden: the token is valid but may not read metrics"},
		{name: "404", path: "/nope", wantErr: "404 Not Found: nothing serves metrics at this path"},
		{name: "500 echoing the token", path: "/fail", cfg: HTTPConfig{Token: secret}, wantErr: "500 Internal Server Error: the endpoint failed"},
		{name: "html", path: "/html", wantErr: `not Prometheus text metrics (Content-Type "text/html"): line 1 starts "<html></html>"; is this the metrics port?`},
		{name: "json echoing the token", path: "/json", cfg: HTTPConfig{Token: secret},
			wantErr: `not Prometheus text metrics (Content-Type "application/json"): line 1 starts "{\"auth\":\"Bearer [REDACTED]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.timeout == 0 {
				tt.timeout = 5 * time.Second
			}
			got, err := fetchAll(t, newSource(t, srv.URL+tt.path, nil, tt.cfg), tt.timeout)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error leaks the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("body = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestURLSourceHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, page)
	}))
	defer srv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		cfg     HTTPConfig
		wantErr string
	}{
		{name: "CA file and token", cfg: HTTPConfig{Token: secret, CAFile: caFile}},
		{name: "insecure and token", cfg: HTTPConfig{Token: secret, InsecureSkipVerify: true}},
		{name: "unknown CA", cfg: HTTPConfig{Token: secret}, wantErr: "--metrics-ca-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fetchAll(t, newSource(t, srv.URL+"/metrics", nil, tt.cfg), 5*time.Second)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), secret) {
					t.Fatalf("error = %v, want it to contain %q and no token", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != page {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := fetchAll(t, newSource(t, url+"/metrics", nil, HTTPConfig{}), 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "nothing listens there") {
		t.Fatalf("error = %v", err)
	}
}

func TestNewURLSourceRejects(t *testing.T) {
	for _, raw := range []string{"ftp://x/metrics", "localhost:8080/metrics", "http://", "https://user:" + secret + "@/x"} {
		_, err := NewURLSource(raw, http.DefaultClient, HTTPConfig{})
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("NewURLSource(%q) error = %v", raw, err)
		}
	}
}

func TestFileSource(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.prom")
	gz := filepath.Join(dir, "b.prom.gz")
	os.WriteFile(plain, []byte(page), 0o600)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(page))
	zw.Close()
	os.WriteFile(gz, buf.Bytes(), 0o600)

	f := &FileSource{Paths: []string{plain, gz, "-"}, Stdin: strings.NewReader(page)}
	if f.Name() != "stdin" || f.Pages() != 3 {
		t.Fatalf("name %q pages %d", f.Name(), f.Pages())
	}
	for i := 0; i < 3; i++ {
		if got, err := fetchAll(t, f, time.Second); err != nil || got != page {
			t.Fatalf("page %d: %q, %v", i, got, err)
		}
	}
	if _, err := f.Fetch(context.Background()); err == nil {
		t.Fatal("fetch past the last page should fail")
	}
	if n := (&FileSource{Paths: []string{plain, gz}}).Name(); n != "b.prom.gz" {
		t.Errorf("BEFORE,AFTER is named %q, want the AFTER page's base name", n)
	}
	if n := (&FileSource{Label: "kcm", Paths: []string{plain, gz}}).Name(); n != "kcm" {
		t.Errorf("a labelled source is named %q, want its label", n)
	}
	_, err := fetchAll(t, &FileSource{Paths: []string{filepath.Join(dir, "missing.prom")}}, time.Second)
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file error = %v", err)
	}
	_, err = fetchAll(t, &FileSource{Paths: []string{plain}, MaxBodyBytes: 10}, time.Second)
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("oversize saved page error = %v", err)
	}
}

// Redirect loops, redirects to another host and plain HTTP sent to an HTTPS port are named.
func TestURLSourceExplainsRedirectsAndSchemes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusMovedPermanently)
		case "/away":
			http.Redirect(w, r, "http://user:pw@elsewhere.invalid/metrics", http.StatusFound)
		}
	}))
	defer srv.Close()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	for url, want := range map[string]string{
		srv.URL + "/loop": "redirects to /loop, which was not followed",
		srv.URL + "/away": "redirects to http://user:xxxxx@elsewhere.invalid/metrics",
		strings.Replace(tlsSrv.URL, "https:", "http:", 1): "use an https:// URL",
	} {
		_, err := fetchAll(t, newSource(t, url, nil, HTTPConfig{}), 5*time.Second)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", url, want, err)
		}
	}
}

// A 200 answer of another type is read (the parser decides), and its Content-Type travels with
// the page and its body, so that a parse error can name it.
func TestURLSourceCarriesContentType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("\x00\x01\x02binary"))
	}))
	defer srv.Close()
	p, err := newSource(t, srv.URL+"/metrics", nil, HTTPConfig{}).Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Body.Close()
	if p.ContentType != "application/octet-stream" {
		t.Errorf("page Content-Type = %q", p.ContentType)
	}
	_, err = parse.Parse("page", p.Body, func(string) bool { return false })
	var nt *parse.NotTextError
	if !errors.As(err, &nt) || nt.ContentType != "application/octet-stream" || nt.Start != "\x00\x01\x02binary" {
		t.Fatalf("parse error = %v, want a NotTextError naming the Content-Type and the bytes", err)
	}
}
