// Command benchratio runs the project's benchmarks and measurements and writes them into
// BENCHMARKS.md as ratios against baselines measured in the same run, with the machine, the
// command and the date: the Go benchmarks (parse, model, render, scrape, a top refresh, `report` against `queues`; `go test -bench
// -benchmem`), the peak RSS of `queues` over a generated 30 MB page, the start-up time against
// `kubectl version --client`, `report --prometheus` against curl sending its queries to a real
// Prometheus holding 1, 50 and 500 targets, and, when a local cluster runs, reading by hand (`kubectl get --raw | grep`) against
// `queues` on kube-controller-manager and the e2e fan-out and discovery measurements.
//
// Each part is a section of BENCHMARKS.md between markers; a run rewrites the sections it
// measured and keeps the others as they were (each says when and where it was measured).
// `make bench` runs it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/test/pagegen"
)

// benchPackages hold the Go benchmarks.
var benchPackages = []string{"./pkg/parse", "./pkg/model/health", "./pkg/sources/collect", "./pkg/print/render", "./pkg/run", "./pkg/sources/snapshot", "./pkg/view/diff", "./pkg/judge/findings"}

type config struct {
	root, out, clusterRoot, benchInput string
	count                              int
	only                               map[string]bool
}

func main() {
	var c config
	var only string
	flag.StringVar(&c.out, "o", "BENCHMARKS.md", "file to write the sections into")
	flag.IntVar(&c.count, "count", 6, "runs of each benchmark and measurement; medians are reported")
	flag.StringVar(&only, "only", "", "comma-separated sections to measure (go,rss,startup,prometheus,grep,e2e); default: all that can run here")
	flag.StringVar(&c.clusterRoot, "cluster-root", os.Getenv("CTRLDIAG_E2E_CLUSTER_ROOT"),
		"checkout whose local cluster runs (default: this one); the grep and e2e sections need it")
	flag.StringVar(&c.benchInput, "bench-input", "", "read `go test -bench` output from this file instead of running the benchmarks")
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	c.root = root
	if c.clusterRoot == "" {
		c.clusterRoot = root
	}
	c.only = map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		if s != "" {
			c.only[s] = true
		}
	}
	if err := run(c); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchratio:", err)
	os.Exit(1)
}

func (c config) want(section string) bool { return len(c.only) == 0 || c.only[section] }

func (c config) kubeconfig() string {
	return filepath.Join(c.clusterRoot, ".cache/cluster/run/admin.kubeconfig")
}

// clusterUp says whether the local cluster answers.
func (c config) clusterUp() bool {
	cmd := exec.Command("kubectl", "get", "--raw=/readyz")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+c.kubeconfig())
	return cmd.Run() == nil
}

func run(c config) error {
	tmp, err := os.MkdirTemp("", "benchratio-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	sections := map[string]string{}
	var order []string
	add := func(name, text string) {
		sections[name] = text
		order = append(order, name)
		// Write after each section so that a later failure keeps what was measured.
		if err := writeSections(c.out, sections, order); err != nil {
			fatal(err)
		}
	}
	if c.want("go") {
		s, err := goSection(c, tmp)
		if err != nil {
			return err
		}
		add("go", s)
	}
	var plugin string
	if c.want("rss") || c.want("startup") || c.want("grep") || c.want("prometheus") {
		binDir := filepath.Join(tmp, "bin")
		if err := os.MkdirAll(binDir, 0o755); err != nil {
			return err
		}
		if plugin, err = buildPlugin(c.root, binDir); err != nil {
			return err
		}
	}
	if c.want("rss") {
		s, err := rssSection(c, plugin, tmp)
		if err != nil {
			return err
		}
		add("rss", s)
	}
	if c.want("startup") {
		s, err := startupSection(c, plugin)
		if err != nil {
			return err
		}
		add("startup", s)
	}
	promOK := promTools() == nil
	if !promOK && c.only["prometheus"] {
		return promTools()
	}
	if !promOK && c.want("prometheus") {
		fmt.Fprintf(os.Stderr, "benchratio: %v: the prometheus section keeps its previous content\n", promTools())
	}
	if promOK && c.want("prometheus") {
		s, err := promSection(c, plugin, tmp)
		if err != nil {
			return err
		}
		add("prometheus", s)
	}
	up := (c.want("grep") || c.want("e2e")) && c.clusterUp()
	if !up && (c.only["grep"] || c.only["e2e"]) {
		return fmt.Errorf("the local cluster of %s does not answer: start it with make cluster (the grep and e2e sections need it)", c.clusterRoot)
	}
	if !up && (c.want("grep") || c.want("e2e")) {
		fmt.Fprintf(os.Stderr, "benchratio: no local cluster answers at %s: the grep and e2e sections keep their previous content\n", c.kubeconfig())
	}
	if up && c.want("grep") {
		s, err := grepSection(c, plugin)
		if err != nil {
			return err
		}
		add("grep", s)
	}
	if up && c.want("e2e") {
		s, err := e2eSection(c)
		if err != nil {
			return err
		}
		add("e2e", s)
	}
	return nil
}

// stamp is the first line of every section: when, where and how it was measured.
func stamp(command string) string {
	return fmt.Sprintf("Measured %s on %s.\nCommand: `%s`\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), machine(), command)
}

// machine describes this machine: CPUs, CPU model, memory, Go.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "unknown memory"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "MemTotal:") {
				fmt.Sscan(strings.TrimPrefix(l, "MemTotal:"), &kb)
			}
		}
		mem = fmt.Sprintf("%.1f GiB RAM", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d CPUs (nproc), %s, %s, %s %s/%s", runtime.NumCPU(), model, mem, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func goSection(c config, tmp string) (string, error) {
	command := fmt.Sprintf("for each of %d rounds, for each of %s: the package's test binary (go test -c) with "+
		"-test.run '^$' -test.bench . -test.benchmem -test.count 1", c.count, strings.Join(benchPackages, " "))
	var out []byte
	if c.benchInput != "" {
		b, err := os.ReadFile(c.benchInput)
		if err != nil {
			return "", err
		}
		out, command = b, "go test -bench output read from "+c.benchInput
	} else {
		b, err := runBenchRounds(c, tmp)
		if err != nil {
			return "", err
		}
		out = b
		// The raw output, to re-render the table with -bench-input.
		_ = os.WriteFile(filepath.Join(os.TempDir(), "benchratio-go.txt"), out, 0o644)
	}
	res, err := parseBench(bytes.NewReader(out))
	if err != nil {
		return "", err
	}
	if len(res) == 0 {
		return "", fmt.Errorf("no benchmark results in the output of %s", command)
	}
	var b strings.Builder
	b.WriteString("### Go benchmarks (medians of the runs; ratios against the baseline of the same group, same run)\n\n")
	b.WriteString(stamp(command))
	b.WriteString(benchTable(res))
	b.WriteString("\nTargets:\n\n")
	check := func(group, what string, ok func(speed, bytes float64) bool, bytesMatter bool) {
		base := find(res, group, "baseline=expfmt-full")
		cur := find(res, group, "filtered")
		speed, ok1 := ratio(base, cur, "ns/op")
		bts, ok2 := ratio(base, cur, "B/op")
		if !ok1 || !ok2 {
			fmt.Fprintf(&b, "- %s: not measured (no %s results)\n", what, group)
			return
		}
		detail := fmt.Sprintf("%.1fx faster", speed)
		if bytesMatter {
			detail += fmt.Sprintf(", 1/%.0f of the allocated bytes", bts)
		}
		fmt.Fprintf(&b, "- %s: %s (%s)\n", what, verdict(ok(speed, bts)), detail)
	}
	check("Parse/synthetic-apiserver-30MB", "30 MB page >= 20x faster than expfmt's full parse with <= 1/20 of its allocated bytes",
		func(s, bts float64) bool { return s >= 20 && bts >= 20 }, true)
	check("Parse/controller-runtime", "controller-runtime page no slower than expfmt", func(s, _ float64) bool { return s >= 1 }, false)
	check("Parse/kube-controller-manager", "kube-controller-manager page no slower than expfmt", func(s, _ float64) bool { return s >= 1 }, false)
	b.WriteString(reportCPUTarget(res))
	return b.String(), nil
}

// runBenchRounds builds each benchmark package's test binary once, then runs every benchmark
// once a round, for c.count rounds: a baseline and what it is compared with run close together
// in every round, so that load from other work on the machine hits both alike (go test -count
// would run one benchmark all its times before the next).
func runBenchRounds(c config, tmp string) ([]byte, error) {
	bins := make([]string, len(benchPackages))
	for i, pkg := range benchPackages {
		bins[i] = filepath.Join(tmp, fmt.Sprintf("bench-%d.test", i))
		cmd := exec.Command("go", "test", "-c", "-o", bins[i], pkg)
		cmd.Dir = c.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go test -c %s: %v\n%s", pkg, err, out)
		}
	}
	var all bytes.Buffer
	for round := range c.count {
		for i, pkg := range benchPackages {
			fmt.Fprintf(os.Stderr, "benchratio: round %d/%d: %s\n", round+1, c.count, pkg)
			cmd := exec.Command(bins[i], "-test.run", "^$", "-test.bench", ".", "-test.benchmem", "-test.count", "1")
			cmd.Dir = filepath.Join(c.root, pkg) // the benchmarks read ../../testdata
			out, err := cmd.Output()
			if err != nil {
				return nil, fmt.Errorf("benchmarks of %s: %v\n%s", pkg, err, tail(string(out)))
			}
			all.Write(out)
		}
	}
	return all.Bytes(), nil
}

func rssSection(c config, plugin, tmp string) (string, error) {
	seed := filepath.Join(c.root, "testdata/pages/kube-apiserver-large.prom.gz")
	page := filepath.Join(tmp, "big.prom")
	f, err := os.Create(page)
	if err != nil {
		return "", err
	}
	s, err := pagegen.ReadSeed(seed)
	if err != nil {
		return "", err
	}
	n, err := pagegen.Write(f, s, 30<<20)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	runs, err := timeMany(c.count, pathEnv(plugin),
		[]string{plugin, "queues", "--from-file", page, "--interval", "0"},
		[]string{plugin, "version"})
	if err != nil {
		return "", err
	}
	peak := maxRSS(runs[0])
	var b strings.Builder
	b.WriteString("### Peak RSS of `queues` over the 30 MB page\n\n")
	b.WriteString(stamp(fmt.Sprintf("go run ./hack/benchratio -only rss -count %d", c.count)))
	fmt.Fprintf(&b, "The page: %.1f MB, grown by test/pagegen from testdata/pages/kube-apiserver-large.prom.gz. "+
		"Peak RSS is the rusage maxrss of the process (what `/usr/bin/time -v` prints), %d runs.\n\n", float64(n)/1e6, c.count)
	b.WriteString("| command | median wall | median peak RSS | max peak RSS |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| `kubectl-ctrldiag queues --from-file big.prom --interval 0` | %s | %s | %s |\n", ms(medianWall(runs[0])), mib(medianRSS(runs[0])), mib(peak))
	fmt.Fprintf(&b, "| `kubectl-ctrldiag version` (the binary's floor) | %s | %s | %s |\n", ms(medianWall(runs[1])), mib(medianRSS(runs[1])), mib(maxRSS(runs[1])))
	fmt.Fprintf(&b, "\nTarget: peak RSS under 64 MiB: %s (max of the runs %s).\n", verdict(peak < 64<<20), mib(peak))
	return b.String(), nil
}

func startupSection(c config, plugin string) (string, error) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		return "", err
	}
	env := pathEnv(plugin)
	operator := filepath.Join(filepath.Dir(plugin), "kubectl-ctrldiag-operator")
	n := c.count * 5
	runs, err := timeMany(n, env, []string{kubectl, "ctrldiag", "version"}, []string{kubectl, "version", "--client"},
		[]string{plugin, "version"}, []string{operator, "version"})
	if err != nil {
		return "", err
	}
	plug, kc, bare, op := medianWall(runs[0]), medianWall(runs[1]), medianWall(runs[2]), medianWall(runs[3])
	var totals []float64
	var totalBytes int64
	for range c.count {
		t, tb, err := initTrace(env, plugin)
		if err != nil {
			return "", err
		}
		totals, totalBytes = append(totals, t), tb
	}
	var b strings.Builder
	b.WriteString("### Start-up\n\n")
	b.WriteString(stamp(fmt.Sprintf("go run ./hack/benchratio -only startup -count %d", c.count)))
	fmt.Fprintf(&b, "%d interleaved runs of each, in an order shuffled each round; `kubectl ctrldiag` finds the plugin on PATH, so it includes kubectl's own start.\n\n", n)
	b.WriteString("| command | median wall | ratio to `kubectl version --client` |\n|---|---:|---:|\n")
	fmt.Fprintf(&b, "| `kubectl version --client` (baseline) | %s | 1.00x |\n", ms(kc))
	fmt.Fprintf(&b, "| `kubectl ctrldiag version` | %s | %.2fx |\n", ms(plug), float64(plug)/float64(kc))
	fmt.Fprintf(&b, "| `kubectl-ctrldiag version` (the binary alone) | %s | %.2fx |\n", ms(bare), float64(bare)/float64(kc))
	fmt.Fprintf(&b, "| `kubectl-ctrldiag-operator version` (the operator's binary, for comparison) | %s | %.2fx |\n", ms(op), float64(op)/float64(kc))
	fmt.Fprintf(&b, "\nThe plugin is %s, the operator's binary %s (`-s -w`). The operator is a binary of its own so that the "+
		"plugin does not link controller-runtime, k8s.io/apiserver and their dependencies; `kubectl ctrldiag operator ...` "+
		"hands over to it.\n", mib(fileSize(plugin)), mib(fileSize(operator)))
	fmt.Fprintf(&b, "\nPackage init of the plugin (GODEBUG=inittrace=1, median of %d): %.1f ms and %s in all packages.\n",
		c.count, median(totals), mib(totalBytes))
	fmt.Fprintf(&b, "\nTarget: `kubectl ctrldiag version` within 1.5x of `kubectl version --client`: %s (%.2fx).\n", verdict(float64(plug) <= 1.5*float64(kc)), float64(plug)/float64(kc))
	return b.String(), nil
}

func grepSection(c config, plugin string) (string, error) {
	env := append(pathEnv(plugin), "KUBECONFIG="+c.kubeconfig())
	cmd := exec.Command("kubectl", "-n", "kube-system", "get", "pods", "-l", "component=kube-controller-manager", "-o", "jsonpath={.items[0].metadata.name}")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return "", fmt.Errorf("find the kube-controller-manager pod: %v", err)
	}
	pod := string(out)
	script := fmt.Sprintf("kubectl get --raw /api/v1/namespaces/kube-system/pods/https:%s:10257/proxy/metrics | grep workqueue_depth", pod)
	plug := []string{"kubectl", "ctrldiag", "queues", "-n", "kube-system", "pod/" + pod, "--interval", "0"}
	disc := []string{"kubectl", "ctrldiag", "queues", "-n", "kube-system", "--interval", "0"}
	n := c.count * 3
	runs, err := timeMany(n, env, []string{"bash", "-o", "pipefail", "-c", script}, plug, disc)
	if err != nil {
		return "", err
	}
	s, p, d := medianWall(runs[0]), medianWall(runs[1]), medianWall(runs[2])
	var b strings.Builder
	b.WriteString("### Reading by hand (`kubectl get --raw | grep`) against `queues`, on kube-controller-manager of the local control plane\n\n")
	b.WriteString(stamp(fmt.Sprintf("go run ./hack/benchratio -only grep -count %d", c.count)))
	fmt.Fprintf(&b, "%d interleaved runs of each, in an order shuffled each round, single sample (`--interval 0`: the two-sample mode waits on purpose).\n\n", n)
	b.WriteString("| command | median wall | ratio to the script |\n|---|---:|---:|\n")
	fmt.Fprintf(&b, "| `%s` (baseline) | %s | 1.00x |\n", script, ms(s))
	fmt.Fprintf(&b, "| `%s` | %s | %.2fx |\n", strings.Join(plug, " "), ms(p), float64(p)/float64(s))
	fmt.Fprintf(&b, "| `%s` (discovery as well) | %s | %.2fx |\n", strings.Join(disc, " "), ms(d), float64(d)/float64(s))
	fmt.Fprintf(&b, "\nTarget: the plugin within 1.5x of the script: %s (%.2fx on the same target).\n", verdict(float64(p) <= 1.5*float64(s)), float64(p)/float64(s))
	return b.String(), nil
}

func e2eSection(c config) (string, error) {
	lines, command, err := e2eLines(c.root, c.clusterRoot, "^(TestFanOut|TestDiscoveryPages)$")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("### Fan-out and discovery on the local control plane (e2e)\n\n")
	b.WriteString(stamp(command))
	var fanout, discovery []map[string]string
	for _, l := range lines {
		switch f := fields(l); f["bench"] {
		case "fanout":
			fanout = append(fanout, f)
		case "discovery":
			discovery = append(discovery, f)
		}
	}
	if len(fanout) > 0 {
		b.WriteString("Fan-out: `kubectl ctrldiag queues -n NS --interval 0` over pods that one local process stands behind " +
			"(one port each, serving the controller-runtime capture, read through the API server's proxy), against the " +
			"slowest of the single-target runs `queues -n NS pod/NAME --interval 0` measured in the same rounds; medians " +
			"of the rounds. Peak RSS is the maxrss of the `kubectl ctrldiag` process (kubectl execs the plugin); CPU is its user+system " +
			"time (the API server and the serving process use the same 2 cores on top).\n\n")
		b.WriteString("| targets | --concurrency | rounds | median wall, all targets | slowest single-target run | ratio | within 2x | plugin CPU, all targets | peak RSS, all targets | peak RSS, one target |\n|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n")
		for _, f := range fanout {
			fmt.Fprintf(&b, "| %s | %s | %s | %s ms | %s ms | %sx | %s | %s ms | %s MiB | %s MiB |\n", f["targets"], f["concurrency"], f["runs"],
				f["wall_ms"], f["slowest_single_ms"], f["ratio"], verdict(f["within_2x"] == "true"), f["cpu_ms"], f["rss_mib"], f["single_rss_mib"])
		}
		b.WriteString("\n")
	}
	for _, f := range discovery {
		fmt.Fprintf(&b, "Discovery: `kubectl ctrldiag targets` with %s pods in one namespace (created in %s s by 16 parallel clients), "+
			"requests counted by a proxy in front of the API server:\n\n", f["pods"], f["create_s"])
		b.WriteString("| command | pods listed | pod list calls | other requests | total requests |\n|---|---:|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| `targets -n NS` | %s | %s | %s | %s |\n", f["pods"], f["ns_pod_lists"], f["ns_other"], f["ns_total"])
		fmt.Fprintf(&b, "| `targets -A` | %s | %s | %s | %s |\n", f["all_pods"], f["all_pod_lists"], f["all_other"], f["all_total"])
		fmt.Fprintf(&b, "\nThe test asserts these counts: ceil(pods/%s) pod list calls, each with limit=%s; label selectors "+
			"(-l, the kubebuilder Service label) sent to the API server; no request for a single pod.\n\n", f["limit"], f["limit"])
	}
	if len(lines) == 0 {
		return "", fmt.Errorf("%s printed no BENCH lines", command)
	}
	return b.String(), nil
}

// pathEnv is the environment with the plugin's folder first on PATH, and no colour.
func pathEnv(plugin string) []string {
	return append(os.Environ(), "PATH="+filepath.Dir(plugin)+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

const header = `# Benchmarks

Written by ` + "`make bench`" + ` (hack/benchratio): every figure below is a median of several runs on the machine
named in its section, and every ratio compares two things measured in the same run on that machine (the
machine is shared with other builds, so absolute times are noisy; ratios are what the targets are about).
No timing is asserted in ` + "`make test`" + `. A section that could not be measured in the latest run (e.g. no local
cluster) keeps its previous content and date.
`

// writeSections replaces each section of path between its markers, keeping the others.
func writeSections(path string, sections map[string]string, order []string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(old)
	if !strings.HasPrefix(text, "# Benchmarks") {
		text = header
	} else if i := strings.Index(text, "<!-- section:"); i >= 0 {
		text = header + "\n" + text[i:]
	} else {
		text = header
	}
	for _, name := range order {
		begin, end := "<!-- section:"+name+" -->\n", "<!-- end:"+name+" -->\n"
		block := begin + sections[name] + end
		i, j := strings.Index(text, begin), strings.Index(text, end)
		if i >= 0 && j > i {
			text = text[:i] + block + text[j+len(end):]
		} else {
			text = strings.TrimRight(text, "\n") + "\n\n" + block
		}
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
