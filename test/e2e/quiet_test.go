//go:build e2e && scale

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// waitQuiet waits until the control plane (the processes in .cache/cluster/run/pids) has used
// less than a tenth of a core for two seconds running, at most a minute, so that a measurement
// does not share the machine with kwok and the API server still working through the objects a
// test just created. It logs what it saw; a cluster that never calms down is measured anyway.
func waitQuiet(t *testing.T) {
	t.Helper()
	const tick, quietTicks = time.Second, 2
	limit := time.Duration(float64(tick) * 0.1)
	start, calm := time.Now(), 0
	last := controlPlaneCPU(t)
	for time.Since(start) < time.Minute {
		time.Sleep(tick)
		now := controlPlaneCPU(t)
		used := now - last
		last = now
		if used >= limit {
			calm = 0
			continue
		}
		if calm++; calm == quietTicks {
			t.Logf("control plane quiet after %s (%s of CPU in the last second)", time.Since(start).Round(time.Second), used)
			return
		}
	}
	t.Logf("control plane still busy after a minute; measuring anyway")
}

// controlPlaneCPU is the user+system CPU time the control plane's processes have used.
func controlPlaneCPU(t *testing.T) time.Duration {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(env.run, "pids", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no control plane pids under %s: %v", env.run, err)
	}
	var total time.Duration
	for _, f := range files {
		pid, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		stat, err := os.ReadFile(filepath.Join("/proc", string(bytes.TrimSpace(pid)), "stat"))
		if err != nil {
			continue // a process that is gone uses no CPU
		}
		// The fields after the command name (which may hold spaces) start after the last ')';
		// utime and stime are fields 14 and 15 of the line, 12 and 13 after it, in clock ticks.
		rest := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		for _, i := range []int{11, 12} {
			if n, err := strconv.ParseInt(string(rest[i]), 10, 64); err == nil {
				total += time.Duration(n) * time.Second / clockTicks
			}
		}
	}
	return total
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times: 100 on every Linux architecture Go
// supports.
const clockTicks = 100
