// Package promserver runs real servers of the Prometheus HTTP API for tests: Prometheus and a
// single-node VictoriaMetrics (Debian's packages of those names), on loopback, with a scrape
// configuration the test gives. Each runs until the test ends, is stopped by its pid, and
// shows its logs when the test failed.
package promserver

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, filepath.Join(dir, "data")).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
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

// freeAddr is a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// start runs bin with args, waits until ready answers 200 (at most 30 s), and stops it by its
// pid at the end of the test, showing its logs when the test failed.
func start(t *testing.T, name, ready, bin string, args ...string) {
	t.Helper()
	var logs bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s logs:\n%s", name, logs.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(ready)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-done:
			t.Fatalf("%s exited:\n%s", name, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready after 30s:\n%s", name, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
