package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// promServer is a real prometheus serving a store built beforehand, on loopback.
type promServer struct {
	url string
	*promserver.Process
}

// buildStore writes the OpenMetrics text of the fleet into dir and turns it into TSDB blocks
// with promtool, then drops the text; it returns the store's folder.
func buildStore(promtool, dir string, write func(io.Writer) error) (string, error) {
	text := filepath.Join(dir, "fleet.om")
	f, err := os.Create(text)
	if err != nil {
		return "", err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	defer os.Remove(text)
	if err != nil {
		return "", err
	}
	db := filepath.Join(dir, "data")
	return db, promserver.Backfill(promtool, text, db)
}

// startPrometheus runs bin on the store db, scraping nothing, and returns once it is ready.
// The retention is long, so that the backfilled blocks are kept whatever their age.
func startPrometheus(bin, dir, db string) (*promServer, error) {
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		return nil, err
	}
	addr, err := promserver.FreeAddr()
	if err != nil {
		return nil, err
	}
	p, err := promserver.Start("prometheus", "http://"+addr+"/-/ready", 60*time.Second, bin, "--config.file="+cfg, "--storage.tsdb.path="+db,
		"--storage.tsdb.retention.time=3650d", "--web.listen-address="+addr, "--log.level=warn")
	if err != nil {
		return nil, err
	}
	return &promServer{url: "http://" + addr, Process: p}, nil
}

// recorder is a proxy in front of the server that keeps the form of every instant query
// passing through it, as sent.
type recorder struct {
	srv   *http.Server
	url   string
	mu    sync.Mutex
	forms []string
}

func startRecorder(target string) (*recorder, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &recorder{url: "http://" + l.Addr().String()}
	proxy := httputil.NewSingleHostReverseProxy(u)
	r.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasSuffix(req.URL.Path, "/api/v1/query") {
			form := req.URL.RawQuery
			if req.Method == http.MethodPost {
				b, err := io.ReadAll(req.Body)
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
				form = string(b)
				req.Body = io.NopCloser(bytes.NewReader(b))
			}
			r.mu.Lock()
			r.forms = append(r.forms, form)
			r.mu.Unlock()
		}
		proxy.ServeHTTP(w, req)
	})}
	go func() { _ = r.srv.Serve(l) }()
	return r, nil
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.forms
	r.forms = nil
	return f
}

func (r *recorder) close() { _ = r.srv.Close() }
