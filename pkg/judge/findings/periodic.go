package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// notSyncing judges a controller that syncs on a period instead of working a queue
// (external-dns): it has stopped syncing when its last successful sync, or its start when none
// succeeded, is MissedSyncs periods old or more at the page's sample. The period is its flag's
// (pkg/facts/knobs: the container's arguments, else the default); without its pod the flag cannot be
// read, and nothing is judged. The gauges are states: one sample is enough.
func notSyncing(t Target, th Thresholds) []Finding {
	p := t.Cur.Periodic
	if p == nil || math.IsNaN(p.LastSync) || t.Cur.Time.IsZero() {
		return nil
	}
	m := recognise(t)
	if m == nil {
		return nil
	}
	period, from, ok := m.Period()
	if !ok {
		return nil
	}
	now := float64(t.Cur.Time.UnixNano()) / 1e9
	lastOK, never := p.LastSync, !(p.LastSync > 0)
	if never {
		lastOK = t.Cur.Process.StartTime
	}
	age := math.Round(now - lastOK)
	if math.IsNaN(age) || age < th.MissedSyncs*period.Seconds() {
		return nil
	}
	who := m.Controller.Title
	last := Evidence{Name: "last successful sync", Value: format(age, "s") + " ago",
		Threshold: fmt.Sprintf(">= %g periods: %s", th.MissedSyncs, format(th.MissedSyncs*period.Seconds(), "s"))}
	since := "for " + format(age, "s")
	if never {
		last.Value = "none since the process started " + format(age, "s") + " ago"
		since = "once since it started " + format(age, "s") + " ago"
	}
	summary := fmt.Sprintf("%s has not synced %s, %.0f periods of %s", who, since, math.Floor(age/period.Seconds()), period)
	evs := []Evidence{last, {Name: "period", Value: period.String() + " (" + from + ")"}, lastAttempt(p, now)}
	summary += "; " + whyNotSyncing(p, now, period.Seconds())
	for _, e := range []struct {
		name string
		v    float64
	}{{"source errors since the process started", p.SourceErrors}, {"registry errors since the process started", p.RegistryErrors},
		{"soft errors in a row", p.SoftErrors}} {
		if !math.IsNaN(e.v) {
			evs = append(evs, evidence(e.name, e.v, ""))
		}
	}
	return []Finding{newFinding("not-syncing", t.Kind, t.ID, "", summary, evs...)}
}

// lastAttempt is the evidence of the last sync attempted.
func lastAttempt(p *health.Periodic, now float64) Evidence {
	switch {
	case math.IsNaN(p.LastAttempt):
		return Evidence{Name: "last sync attempted", Value: "unknown: the page does not say"}
	case !(p.LastAttempt > 0):
		return Evidence{Name: "last sync attempted", Value: "none since the process started"}
	}
	return Evidence{Name: "last sync attempted", Value: format(math.Round(now-p.LastAttempt), "s") + " ago"}
}

// whyNotSyncing says what the gauges tell of why: no attempt at all (its sources never became
// ready: their informers wait for the objects they list), attempts that fail, or attempts that
// stopped.
func whyNotSyncing(p *health.Periodic, now, period float64) string {
	switch {
	case !(p.LastAttempt > 0) && !math.IsNaN(p.LastAttempt):
		return "it has not attempted one: its sources are not ready (their informers have not synced; read its log and RBAC)"
	case now-p.LastAttempt < 2*period:
		if p.SoftErrors > 0 {
			return fmt.Sprintf("its attempts fail (%.0f in a row; read its log)", p.SoftErrors)
		}
		return "its attempts do not succeed (read its log)"
	case !math.IsNaN(p.LastAttempt):
		return "its last attempt was " + format(math.Round(now-p.LastAttempt), "s") + " ago: a sync that hangs (read its goroutines and log)"
	}
	return "read its log"
}
