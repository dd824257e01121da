package collect

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/test/e2e/hostile"
)

// Every hostile endpoint, read through real URL sources beside a healthy one: sampling ends
// within the timeout (plus slack), the hostile target fails alone with a precise reason, and
// the healthy one is read.
func TestCollectHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("reads large streams")
	}
	srv := httptest.NewServer(hostile.Handler())
	t.Cleanup(srv.Close)
	cfg := scrape.HTTPConfig{Token: "hostile-test-token", MaxBodyBytes: 8 << 20}
	client, err := scrape.NewHTTPClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"/hang": "no complete answer within the timeout", "/drip": "no complete answer within the timeout",
		"/endless": "larger than", "/10g": "larger than", "/gzip-bomb": "larger than", "/many-series": "series",
		"/bad-escape": "invalid escape sequence", "/duplicate-family": "second TYPE line", "/wrong-type": "",
		"/nan": "", "/non-utf8": "invalid label value", "/huge-label": "",
		"/login": "text/html", "/redirect-loop": "redirect", "/redirect-away": "redirect",
		"/html-as-text": `text metrics (Content-Type "text/plain; version=0.0.4; charset=utf-8"): line 1 starts "<!DOCTYPE html>`, "/json": `Content-Type "application/json"): line 1 starts "{`,
		"/binary": `not Prometheus text metrics (Content-Type "application/octet-stream"): line 1 starts "`, "/protobuf": "protobuf exposition format",
		"/status/401": "rejected the bearer token", "/status/403": "may not read metrics",
		"/status/404": "nothing serves metrics", "/status/500": "500 Internal Server Error",
		"/status/503": "503 Service Unavailable",
	}
	for _, mode := range hostile.Modes {
		t.Run(strings.TrimPrefix(mode, "/"), func(t *testing.T) {
			t.Parallel()
			reason, ok := want[mode]
			if !ok {
				t.Fatalf("no expectation for mode %s", mode)
			}
			var sources []scrape.Source
			for _, path := range []string{"/metrics", mode} {
				src, err := scrape.NewURLSource(srv.URL+path, client, cfg)
				if err != nil {
					t.Fatal(err)
				}
				sources = append(sources, src)
			}
			const timeout = 2 * time.Second
			start := time.Now()
			res := Collect(context.Background(), sources, source.Options{Timeout: timeout, Keep: health.Wanted})
			if took := time.Since(start); took > timeout+5*time.Second {
				t.Errorf("sampling took %s with a %s timeout", took, timeout)
			}
			if res[0].Err != nil || len(res[0].Samples) != 1 {
				t.Errorf("the healthy target beside %s: %v", mode, res[0].Err)
			}
			got := res[1].Err
			switch {
			case reason == "" && got != nil:
				t.Errorf("%s must be read: %v", mode, got)
			case reason != "" && (got == nil || !strings.Contains(got.Error(), reason)):
				t.Errorf("%s: want an error saying %q, got %v", mode, reason, got)
			case got != nil && strings.Contains(got.Error(), cfg.Token):
				t.Errorf("%s: the error shows the token: %v", mode, got)
			}
		})
	}
}
