package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// promFleets are the numbers of targets the prometheus section stores.
var promFleets = []int{1, 50, 500}

const (
	promWindow = 10 * time.Minute // the window `report --prometheus` reads (its default)
	promStep   = time.Minute      // the scrape interval of the stored series
)

// promStats is what `-v` says the queries of a run cost.
type promStats struct{ queries, series, bytes int64 }

var promStatsRe = regexp.MustCompile(`Prometheus at \S+: (\d+) queries, (\d+) series, (\d+) bytes`)

// parsePromStats reads the cost line `-v` prints on stderr; ok is false without one.
func parsePromStats(stderr string) (promStats, bool) {
	m := promStatsRe.FindStringSubmatch(stderr)
	if m == nil {
		return promStats{}, false
	}
	var s promStats
	for i, p := range []*int64{&s.queries, &s.series, &s.bytes} {
		v, err := strconv.ParseInt(m[i+1], 10, 64)
		if err != nil {
			return promStats{}, false
		}
		*p = v
	}
	return s, true
}

// curlArgs is one curl process sending each form to base's /api/v1/query as the plugin does
// (POSTed, the same bytes), one after the other on a kept connection (--next), answers
// accepted compressed (as Go's client asks) and thrown away.
func curlArgs(curl, base string, forms []string) []string {
	args := []string{curl}
	for i, f := range forms {
		if i > 0 {
			args = append(args, "--next")
		}
		args = append(args, "-sS", "--fail", "--compressed", "-o", "/dev/null", "-H", "Accept: application/json",
			"--data-binary", f, base+"/api/v1/query")
	}
	return args
}

// promTools says whether the section's programs are on PATH.
func promTools() error {
	for _, p := range []string{"prometheus", "promtool", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("the prometheus section needs prometheus, promtool (Debian: apt-get install prometheus) and curl: %v", err)
		}
	}
	return nil
}

// promRow is one fleet's measurement.
type promRow struct {
	targets, storeSeries int
	stats                promStats
	plugin, curl         time.Duration
}

func promSection(c config, plugin, tmp string) (string, error) {
	if err := promTools(); err != nil {
		return "", err
	}
	prometheus, _ := exec.LookPath("prometheus")
	promtool, _ := exec.LookPath("promtool")
	curl, _ := exec.LookPath("curl")
	first, second, err := readPromPages(c.root)
	if err != nil {
		return "", err
	}
	// An hour ago, on a whole minute: the store is history, as `--at` reads it.
	end := time.Now().Add(-time.Hour).UTC().Truncate(time.Minute)
	n := c.count * 3
	var rows []promRow
	for _, targets := range promFleets {
		fmt.Fprintf(os.Stderr, "benchratio: prometheus: %d targets\n", targets)
		row, err := measureFleet(prometheus, promtool, curl, plugin, filepath.Join(tmp, fmt.Sprintf("prom-%d", targets)),
			targets, first, second, end, n)
		if err != nil {
			return "", fmt.Errorf("prometheus section, %d targets: %w", targets, err)
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	b.WriteString("### `report --prometheus` against the same queries sent with curl\n\n")
	b.WriteString(stamp(fmt.Sprintf("go run ./hack/benchratio -only prometheus -count %d", c.count)))
	fmt.Fprintf(&b, "A real Prometheus (`prometheus` %s) on loopback serves a store built with `promtool tsdb create-blocks-from openmetrics`: "+
		"N controller targets, each the captured controller-runtime page (testdata/pages/controller-runtime-1.prom, then -2.prom "+
		"from the window's middle) with the namespace, pod, job and instance labels a scrape adds, spread over 20 namespaces and "+
		"jobs, one sample every %s from %s before the window's start to its end. The plugin runs "+
		"`kubectl-ctrldiag report --prometheus URL --at T --window %s -o json`; its queries are recorded by a proxy on a first "+
		"run (`-v` says how many, and the series and bytes of the answers), then one curl process sends the same query "+
		"forms to /api/v1/query, one after the other on one connection (`--next`): the floor, what the server takes to "+
		"answer plus one process start. %d interleaved runs of each per N, in an order shuffled each round.\n\n",
		promVersion(prometheus), promStep, promLookback, promWindow, n)
	b.WriteString("| targets | series in the store | queries per run | series answered | bytes answered (JSON) | median `report --prometheus` | median curl, same queries | ratio | plugin's own time per target |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	constant := true
	for _, r := range rows {
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %s | %s | %s | %.2fx | %s |\n", r.targets, r.storeSeries, r.stats.queries, r.stats.series,
			mib(r.stats.bytes), ms(r.plugin), ms(r.curl), float64(r.plugin)/float64(r.curl), ms((r.plugin-r.curl)/time.Duration(r.targets)))
		constant = constant && r.stats.queries == rows[0].stats.queries
	}
	b.WriteString("\nThe ratio is what the plugin adds to the server's answers: its start, decoding the answers, rebuilding " +
		"two samples per target, the model, the findings and the JSON; the last column spreads the difference over the targets. " +
		"The binary runs alone (`kubectl ctrldiag` adds kubectl's start, see Start-up). A reset inside the window would add " +
		"one query (the raw samples of the reset targets); none happens here.\n")
	fmt.Fprintf(&b, "\nTarget: queries per run the same at %s targets: %s (%d).\n", joinInts(promFleets), verdict(constant), rows[0].stats.queries)
	return b.String(), nil
}

// promLookback is how long before the window's start the store holds samples (PromQL's
// lookback, so that the start's instant query sees a sample as it would in a live store).
const promLookback = 5 * time.Minute

// measureFleet builds the store of targets, serves it, records the plugin's queries and times
// the plugin against curl sending them.
func measureFleet(prometheus, promtool, curl, plugin, dir string, targets int, first, second []sampleLine, end time.Time, n int) (promRow, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return promRow{}, err
	}
	defer os.RemoveAll(dir)
	start := end.Add(-promWindow - promLookback)
	fleet := fleetTargets(targets)
	db, err := buildStore(promtool, dir, func(w io.Writer) error {
		return writeFleet(w, fleet, first, second, start, end.Add(-promWindow/2), end, promStep)
	})
	if err != nil {
		return promRow{}, err
	}
	srv, err := startPrometheus(prometheus, dir, db)
	if err != nil {
		return promRow{}, err
	}
	defer srv.Stop()
	rec, err := startRecorder(srv.url)
	if err != nil {
		return promRow{}, err
	}
	defer rec.close()
	args := func(url string) []string {
		return []string{plugin, "report", "--prometheus", url, "--at", end.Format(time.RFC3339), "--window", promWindow.String(), "-o", "json"}
	}
	env := pathEnv(plugin)
	// The recorded run: the queries as sent, and what -v says they cost.
	cmd := exec.Command(args(rec.url)[0], append(args(rec.url)[1:], "-v=1")...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return promRow{}, fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, tail(stderr.String()))
	}
	stats, ok := parsePromStats(stderr.String())
	if !ok {
		return promRow{}, fmt.Errorf("%s -v=1 printed no cost line:\n%s", strings.Join(cmd.Args, " "), tail(stderr.String()))
	}
	forms := rec.take()
	if int64(len(forms)) != stats.queries {
		return promRow{}, fmt.Errorf("the proxy saw %d queries, -v says %d", len(forms), stats.queries)
	}
	var rep struct {
		Summary struct{ Targets, Read int } `json:"summary"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Summary.Targets != targets || rep.Summary.Read != targets {
		return promRow{}, fmt.Errorf("the report read %d of %d targets, want %d (%v)", rep.Summary.Read, rep.Summary.Targets, targets, err)
	}
	runs, err := timeMany(n, env, args(srv.url), curlArgs(curl, srv.url, forms))
	if err != nil {
		return promRow{}, err
	}
	return promRow{targets: targets, storeSeries: targets * len(first), stats: stats, plugin: medianWall(runs[0]), curl: medianWall(runs[1])}, nil
}

// readPromPages reads the two captured controller-runtime pages the targets export.
func readPromPages(root string) (first, second []sampleLine, err error) {
	read := func(name string) ([]sampleLine, error) {
		f, err := os.Open(filepath.Join(root, "testdata/pages", name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return pageSamples(f)
	}
	if first, err = read("controller-runtime-1.prom"); err != nil {
		return nil, nil, err
	}
	second, err = read("controller-runtime-2.prom")
	return first, second, err
}

// promVersion is the version prometheus says it is.
func promVersion(bin string) string {
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		return "of unknown version"
	}
	f := strings.Fields(string(out))
	if len(f) >= 3 {
		return f[2]
	}
	return "of unknown version"
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
