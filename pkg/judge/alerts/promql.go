package alerts

import (
	"strconv"
	"strings"
	"time"
)

// builder writes PromQL for one set of options.
type builder struct {
	o Options
	w string // the window as PromQL writes it: "5m"
}

// sel is a metric with its own matchers and the selector's: workqueue_depth{priority="-100",namespace="x"}.
func (b *builder) sel(metric string, own ...string) string {
	ms := append([]string(nil), own...)
	for _, m := range b.o.Selector {
		ms = append(ms, m.String())
	}
	if len(ms) == 0 {
		return metric
	}
	return metric + "{" + strings.Join(ms, ",") + "}"
}

// rng is sel over the window: rest_client_requests_total{...}[5m].
func (b *builder) rng(metric string, own ...string) string {
	return b.sel(metric, own...) + "[" + b.w + "]"
}

// rec is the name of a recorded series, the window in place of WIN: "ctrldiag:x:rate5m".
func (b *builder) rec(name string) string {
	return RecordPrefix + strings.ReplaceAll(name, "WIN", b.w)
}

// num writes a threshold as PromQL reads it.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// secs writes a duration in seconds.
func secs(d time.Duration) string { return num(d.Seconds()) }

// promDuration writes d as Prometheus durations are written: 5m, 1h30m, 500ms, 0s.
func promDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	for _, u := range []struct {
		d    time.Duration
		unit string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}} {
		if n := d / u.d; n > 0 {
			b.WriteString(strconv.FormatInt(int64(n), 10) + u.unit)
			d -= n * u.d
		}
	}
	return b.String()
}
