// Package promserver runs real servers of the Prometheus HTTP API for tests and benchmarks:
// Prometheus and a single-node VictoriaMetrics (Debian's packages of those names), and
// Thanos (sidecars beside Prometheus, Query over them, Store over compacted and downsampled
// history in a filesystem bucket; hack/thanos builds it), on loopback,
// with a scrape configuration the caller gives. The test helpers run each server
// until the test ends, stop it by its pid, and show its logs when the test failed; Start,
// Backfill and FreeAddr are the same without a test (hack/benchratio).
package promserver

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Prometheus runs bin (prometheus) with the configuration cfg and returns its URL once ready.
func Prometheus(t *testing.T, bin, cfg string) string {
	t.Helper()
	return prometheus(t, bin, cfg, t.TempDir())
}

// PrometheusNativeHistograms runs bin (prometheus) as Prometheus does, with native histograms
// enabled (--enable-feature=native-histograms): it scrapes over protobuf and stores a
// histogram exposed with sparse buckets as one native histogram series.
func PrometheusNativeHistograms(t *testing.T, bin, cfg string) string {
	t.Helper()
	return prometheus(t, bin, cfg, t.TempDir(), "--enable-feature=native-histograms")
}

// PrometheusBackfilled runs bin (prometheus) as Prometheus does, its storage first filled
// with the samples of openMetrics (the OpenMetrics text format, "# EOF" last) by promtool
// (tsdb create-blocks-from openmetrics): series with known values at known times, in the
// past, without waiting for scrapes.
func PrometheusBackfilled(t *testing.T, bin, promtool, cfg, openMetrics string) string {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "backfill.om")
	if err := os.WriteFile(in, []byte(openMetrics), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Backfill(promtool, in, filepath.Join(dir, "data")); err != nil {
		t.Fatal(err)
	}
	return prometheus(t, bin, cfg, dir)
}

// prometheus runs bin with the configuration cfg, its storage in dir/data, and extra flags.
func prometheus(t *testing.T, bin, cfg, dir string, flags ...string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	args := append([]string{"--config.file=" + filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path=" + filepath.Join(dir, "data"), "--web.listen-address=" + addr, "--log.level=warn"}, flags...)
	start(t, "prometheus", "http://"+addr+"/-/ready", bin, args...)
	return "http://" + addr
}

// VictoriaMetrics runs bin (victoria-metrics) scraping with the Prometheus configuration cfg
// and returns its URL once ready. Samples are queryable as soon as they are stored
// (-search.latencyOffset=0s: by default the last 30 s are hidden) and answers are not cached,
// so that a query at a window's end sees its last scrape.
func VictoriaMetrics(t *testing.T, bin, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scrape.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	start(t, "victoria-metrics", "http://"+addr+"/health", bin, "-promscrape.config="+filepath.Join(dir, "scrape.yml"),
		"-storageDataPath="+filepath.Join(dir, "data"), "-httpListenAddr="+addr, "-retentionPeriod=1d",
		"-search.latencyOffset=0s", "-search.disableCache", "-loggerLevel=WARN")
	return "http://" + addr
}

// Backfill turns the OpenMetrics text file in ("# EOF" last) into TSDB blocks in the
// storage folder db, with promtool (tsdb create-blocks-from openmetrics).
func Backfill(promtool, in, db string) error {
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, db).CombinedOutput(); err != nil {
		return fmt.Errorf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	return nil
}

// freeAddr is a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// FreeAddr is a loopback address that was free a moment ago.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

// start runs bin with args as Start does (at most 30 s to be ready), and stops it by its pid
// at the end of the test, showing its logs when the test failed.
func start(t *testing.T, name, ready, bin string, args ...string) *Process {
	t.Helper()
	p, err := Start(name, ready, 30*time.Second, bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s logs:\n%s", name, p.Logs())
		}
	})
	return p
}

// Process is a server started by Start.
type Process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	mu   sync.Mutex
	logs bytes.Buffer
}

// Start runs bin with args in its own process group and returns once ready answers 200; it
// fails when the process exits first or is not ready within wait (it is then stopped).
func Start(name, ready string, wait time.Duration, bin string, args ...string) (*Process, error) {
	p := &Process{name: name, done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(wait)
	for {
		resp, err := http.Get(ready)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("%s exited:\n%s", name, p.Logs())
		default:
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("%s not ready after %s:\n%s", name, wait, p.Logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Write keeps the process's output (stdout and stderr) for Logs.
func (p *Process) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.Write(b)
}

// Logs is what the process printed so far.
func (p *Process) Logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// Stop ends the process by its pid: SIGTERM, then SIGKILL after 10 s.
func (p *Process) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
