package promsource_test

import (
	"os"
	"path/filepath"
	"testing"
)

// startVictoriaMetrics runs a single-node VictoriaMetrics on loopback scraping with the
// Prometheus configuration cfg, and stops it by its pid at the end of the test. Samples are
// queryable as soon as they are stored (-search.latencyOffset=0s: by default the last 30 s
// are hidden) and answers are not cached, so that a query at the window's end sees its last
// scrape.
func startVictoriaMetrics(t *testing.T, bin, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scrape.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	startServer(t, "victoria-metrics", "http://"+addr+"/health", bin, "-promscrape.config="+filepath.Join(dir, "scrape.yml"),
		"-storageDataPath="+filepath.Join(dir, "data"), "-httpListenAddr="+addr, "-retentionPeriod=1d",
		"-search.latencyOffset=0s", "-search.disableCache", "-loggerLevel=WARN")
	return "http://" + addr
}
