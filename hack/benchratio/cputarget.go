package main

import "fmt"

// reportCPUGroup is the benchmark group that runs `report` and `queues` (its baseline) over
// the same saved pages (pkg/run's BenchmarkReportCPU); reportCPUMax is the most CPU
// `report` may cost, as a multiple of `queues`'.
const (
	reportCPUGroup = "ReportCPU/pages-60"
	reportCPUMax   = 1.3
)

// reportCPUTarget is the target line about the CPU of `report` against `queues`: the ratio of
// their median CPU times per run, measured in the same rounds.
func reportCPUTarget(res []*result) string {
	const what = "`report` at most 1.3x the CPU of `queues` over the same 60 pages"
	base, cur := find(res, reportCPUGroup, "baseline=queues"), find(res, reportCPUGroup, "report")
	if base == nil || cur == nil {
		return fmt.Sprintf("- %s: not measured (no %s results)\n", what, reportCPUGroup)
	}
	q, ok1 := base.median("cpu-ms/run")
	r, ok2 := cur.median("cpu-ms/run")
	if !ok1 || !ok2 || q == 0 {
		return fmt.Sprintf("- %s: not measured (no cpu-ms/run in %s)\n", what, reportCPUGroup)
	}
	x := r / q
	return fmt.Sprintf("- %s: %s (%.2fx: %s against %s cpu-ms/run)\n", what, verdict(x <= reportCPUMax), x, human(r), human(q))
}
