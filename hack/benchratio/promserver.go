package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// promServer is a real prometheus serving a store built beforehand, on loopback.
type promServer struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{}
	logs bytes.Buffer
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
	cmd := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", text, db)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, tail(string(out)))
	}
	return db, nil
}

// startPrometheus runs bin on the store db, scraping nothing, and returns once it is ready.
// The retention is long, so that the backfilled blocks are kept whatever their age.
func startPrometheus(bin, dir, db string) (*promServer, error) {
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	_ = l.Close()
	s := &promServer{url: "http://" + addr, done: make(chan struct{})}
	s.cmd = exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+db,
		"--storage.tsdb.retention.time=3650d", "--web.listen-address="+addr, "--log.level=warn")
	s.cmd.Stdout, s.cmd.Stderr = &s.logs, &s.logs
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.url + "/-/ready")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("prometheus exited:\n%s", tail(s.logs.String()))
		default:
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("prometheus not ready after 60s:\n%s", tail(s.logs.String()))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends the server by its pid.
func (s *promServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
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
