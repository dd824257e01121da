package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// cmdRun is one finished command: wall time and peak resident set size.
type cmdRun struct {
	wall   time.Duration
	maxRSS int64 // bytes
}

// timeCmd runs argv with env and returns its wall time and peak RSS (from wait4's rusage, as
// /usr/bin/time -v reports it). A failing command is an error with its output.
func timeCmd(env []string, argv ...string) (cmdRun, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return cmdRun{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(out.String()))
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return cmdRun{wall: wall, maxRSS: rss}, nil
}

// timeMany runs each command n times, interleaved so that load changes hit all alike, and
// returns the runs of each. Each round runs the commands in a shuffled order (the same
// shuffles every time: the seed is fixed), so that no command always runs right after
// another: in a fixed order a command's time carries what the one before it left behind.
// Measured on the Prometheus section at 1 target, three times 300 runs of each in strict
// alternation and then shuffled, back to back: 1.47x, 1.52x and 1.55x alternating, 1.32x,
// 1.36x and 1.27x shuffled (in one pair curl's median moved, 14.7 to 18.0 ms, with the
// plugin's unchanged at 22.9 and 22.8 ms; in the others the plugin's).
func timeMany(n int, env []string, cmds ...[]string) ([][]cmdRun, error) {
	out := make([][]cmdRun, len(cmds))
	order := rand.New(rand.NewPCG(1, 2))
	for range n {
		for _, i := range order.Perm(len(cmds)) {
			argv := cmds[i]
			r, err := timeCmd(env, argv...)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], r)
		}
	}
	return out, nil
}

func medianWall(rs []cmdRun) time.Duration {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = float64(r.wall)
	}
	return time.Duration(median(v))
}

func medianRSS(rs []cmdRun) int64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = float64(r.maxRSS)
	}
	return int64(median(v))
}

func maxRSS(rs []cmdRun) int64 {
	var m int64
	for _, r := range rs {
		m = max(m, r.maxRSS)
	}
	return m
}

// initTrace sums GODEBUG=inittrace=1 of `plugin version`: all packages, and those whose path
// starts with one of heavy.
func initTrace(env []string, plugin string) (total float64, totalBytes int64, err error) {
	cmd := exec.Command(plugin, "version")
	cmd.Env = append(env, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init k8s.io/client-go/kubernetes/scheme @12 ms, 2.0 ms clock, 1234 bytes, 10 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" {
			continue
		}
		var ms float64
		var b int64
		fmt.Sscan(f[4], &ms)
		fmt.Sscan(f[7], &b)
		total += ms
		totalBytes += b
	}
	return total, totalBytes, sc.Err()
}

// e2eLines runs the named e2e tests verbosely and returns their "BENCH " lines.
func e2eLines(root, clusterRoot, pattern string) ([]string, string, error) {
	args := []string{"test", "-tags", "e2e,scale", "-count=1", "-timeout", "30m", "-v", "-run", pattern, "./test/e2e/"}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CTRLDIAG_E2E_CLUSTER_ROOT="+clusterRoot)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if i := strings.Index(l, "BENCH "); i >= 0 {
			lines = append(lines, strings.TrimSpace(l[i+len("BENCH "):]))
		}
	}
	command := "CTRLDIAG_E2E_CLUSTER_ROOT=" + clusterRoot + " go " + strings.Join(args, " ")
	if err != nil {
		return lines, command, fmt.Errorf("%s: %v\n%s", command, err, tail(out.String()))
	}
	return lines, command, nil
}

// fields parses "key=value key=value" into a map.
func fields(line string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Fields(line) {
		if k, v, ok := strings.Cut(f, "="); ok {
			m[k] = v
		}
	}
	return m
}

func tail(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > 30 {
		l = l[len(l)-30:]
	}
	return strings.Join(l, "\n")
}

// buildPlugin builds the plugin and the operator into dir, kubectl-ctrldiag and
// kubectl-ctrldiag-operator, the way `make build` does, and returns the plugin's path.
func buildPlugin(root, dir string) (string, error) {
	for _, name := range []string{"kubectl-ctrldiag-operator", "kubectl-ctrldiag"} {
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", name, err, out)
		}
	}
	return filepath.Join(dir, "kubectl-ctrldiag"), nil
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
