package main

import (
	"strings"
	"testing"
)

const cpuOutput = `BenchmarkReportCPU/pages-60/baseline=queues-2   	 10	 100000000 ns/op	 100.0 cpu-ms/run	 1000 B/op	 10 allocs/op
BenchmarkReportCPU/pages-60/baseline=queues-2   	 10	 100000000 ns/op	 200.0 cpu-ms/run	 1000 B/op	 10 allocs/op
BenchmarkReportCPU/pages-60/baseline=queues-2   	 10	 100000000 ns/op	 120.0 cpu-ms/run	 1000 B/op	 10 allocs/op
BenchmarkReportCPU/pages-60/report-2            	 10	 100000000 ns/op	 150.0 cpu-ms/run	 1000 B/op	 10 allocs/op
BenchmarkReportCPU/pages-60/report-2            	 10	 100000000 ns/op	 156.0 cpu-ms/run	 1000 B/op	 10 allocs/op
BenchmarkReportCPU/pages-60/report-2            	 10	 100000000 ns/op	 400.0 cpu-ms/run	 1000 B/op	 10 allocs/op
`

// TestReportCPUTarget: the ratio is of the medians of cpu-ms/run (156 / 120 = 1.30: met; one
// more millisecond misses it), and a run without the group says it was not measured.
func TestReportCPUTarget(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{cpuOutput, ": met (1.30x: 156 against 120 cpu-ms/run)\n"},
		{strings.Replace(cpuOutput, "156.0 cpu-ms", "157.3 cpu-ms", 1), ": **missed** (1.31x: 157 against 120 cpu-ms/run)\n"},
		{"BenchmarkQuantile-2   	  520608	      2565 ns/op\n", ": not measured (no ReportCPU/pages-60 results)\n"},
	} {
		res, err := parseBench(strings.NewReader(c.out))
		if err != nil {
			t.Fatal(err)
		}
		got := reportCPUTarget(res)
		if !strings.HasPrefix(got, "- `report` at most 1.3x the CPU of `queues` over the same 60 pages") || !strings.HasSuffix(got, c.want) {
			t.Errorf("got %q, want it to end in %q", got, c.want)
		}
	}
}
