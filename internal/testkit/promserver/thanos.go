package promserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// Sidecar is a Prometheus with a Thanos sidecar beside it, as each replica of an HA pair runs.
type Sidecar struct {
	// Prometheus is the URL of the Prometheus itself; GRPC the sidecar's Store API address,
	// which Thanos Query is given as an endpoint.
	Prometheus, GRPC string
	process          *Process
}

// Stop stops the sidecar (not its Prometheus), as a store that goes down.
func (s *Sidecar) Stop() { s.process.Stop() }

// PrometheusWithSidecar runs bin (prometheus) with the configuration cfg, which gives the
// external labels (global.external_labels) that tell this Prometheus apart, and thanos
// sidecar beside it, over its storage. Both run until the test ends.
func PrometheusWithSidecar(t *testing.T, bin, thanos, cfg string) *Sidecar {
	t.Helper()
	dir := t.TempDir()
	url := prometheus(t, bin, cfg, dir)
	grpc, http := freeAddr(t), freeAddr(t)
	p := start(t, "thanos sidecar", "http://"+http+"/-/ready", thanos, "sidecar", "--prometheus.url="+url,
		"--tsdb.path="+filepath.Join(dir, "data"), "--grpc-address="+grpc, "--http-address="+http, "--log.level=warn")
	return &Sidecar{Prometheus: url, GRPC: grpc, process: p}
}

// ThanosQuery runs thanos query over the Store API endpoints given, with extra flags (e.g.
// --query.replica-label=replica), and returns its URL once it is ready and has every
// endpoint in its set.
func ThanosQuery(t *testing.T, thanos string, endpoints []string, flags ...string) string {
	t.Helper()
	var args []string
	for _, e := range endpoints {
		args = append(args, "--endpoint="+e)
	}
	return thanosQuery(t, thanos, len(endpoints), append(args, flags...))
}

// ThanosQueryStrict is ThanosQuery over strict endpoints (endpoint.sd-config's strict: true):
// Query keeps asking a strict endpoint whose health check fails, and warns that it did not
// answer (a partial answer), where it drops a plain endpoint from its set and answers without
// it silently.
func ThanosQueryStrict(t *testing.T, thanos string, endpoints []string, flags ...string) string {
	t.Helper()
	cfg := "endpoints:\n"
	for _, e := range endpoints {
		cfg += fmt.Sprintf("  - {address: %q, strict: true}\n", e)
	}
	return thanosQuery(t, thanos, len(endpoints), append([]string{"--endpoint.sd-config=" + cfg}, flags...))
}

// ThanosQueryFrontend runs thanos query-frontend in front of the Query at downstream (its
// URL), as fleets put it (splitting, retries, caching of range queries), and returns its URL
// once it is ready.
func ThanosQueryFrontend(t *testing.T, thanos, downstream string) string {
	t.Helper()
	addr := freeAddr(t)
	start(t, "thanos query-frontend", "http://"+addr+"/-/ready", thanos, "query-frontend", "--http-address="+addr,
		"--query-frontend.downstream-url="+downstream, "--log.level=warn")
	return "http://" + addr
}

// thanosQuery runs thanos query with args (its endpoints and flags) and returns its URL once it
// is ready and lists n stores up.
func thanosQuery(t *testing.T, thanos string, n int, args []string) string {
	t.Helper()
	grpc, addr := freeAddr(t), freeAddr(t)
	args = append([]string{"query", "--http-address=" + addr, "--grpc-address=" + grpc, "--log.level=warn"}, args...)
	start(t, "thanos query", "http://"+addr+"/-/ready", thanos, args...)
	url := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		up, err := storesUp(url)
		if err == nil && up == n {
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("thanos query at %s: %d of its %d endpoints up after 30s (%v)", url, up, n, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// storesUp counts the stores Thanos Query lists as up (/api/v1/stores: no last error).
func storesUp(url string) (int, error) {
	resp, err := http.Get(url + "/api/v1/stores")
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("/api/v1/stores answered %s", resp.Status)
	}
	var body struct {
		Data map[string][]struct {
			LastError *string `json:"lastError"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, err
	}
	n := 0
	for _, stores := range body.Data {
		for _, s := range stores {
			if s.LastError == nil || *s.LastError == "" {
				n++
			}
		}
	}
	return n, nil
}
