package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// capacitySection is the capacity model's reading of each queue with enough completions in
// the window: the offered load, the service time, the workers, the predicted queue wait beside
// the measured one, and the workers needed for the target p99 wait.
func capacitySection(r view.Report) section {
	s := section{Title: "Capacity: workers for the queue wait",
		Header: []string{"TARGET", "QUEUE", "LOOP", "OFFERED/s", "SERVICE MEAN", "SERVICE p99", "WORKERS", "UTILISATION",
			"WAIT p99 MODEL", "WAIT p99 MEASURED", "WORKERS NEEDED", "HEADROOM", "NOTE"},
		Drop: []string{"NOTE", "LOOP", "SERVICE MEAN", "SERVICE p99", "WAIT p99 MODEL", "HEADROOM", "UTILISATION", "OFFERED/s", "WAIT p99 MEASURED"}}
	target := "1s"
	var said []string // the codes of the findings that say a row
	for i, c := range r.Capacity {
		target = Seconds(&c.TargetWaitP99Seconds)
		if i == maxRows {
			continue
		}
		s.Rows = append(s.Rows, []string{c.Target, c.Queue, c.Loop, Rate(c.OfferedPerSecond), Seconds(c.ServiceMeanSeconds),
			Seconds(c.ServiceP99Seconds), workersCell(c), percent(c.Utilisation), modelWait(c), Seconds(c.MeasuredWaitP99Seconds),
			neededCell(c), headroomCell(c), dash(capacityNote(c))})
		code := saidBy(r, c.Target, c.Queue, "under-provisioned")
		if code != "" {
			said = append(said, code)
		}
		s.Notable = append(s.Notable, short(c) && code == "")
	}
	switch {
	case r.Window == view.Lifetime:
		s.Note = "Not modelled: the model needs rates over a window (read twice, --interval)."
	case len(r.Capacity) == 0:
		s.Note = "No queue had enough completions in the window (minEvents) to be modelled."
	default:
		s.Define = fmt.Sprintf("M/M/c (Erlang C) with the spread of service times, for a p99 wait under %s (--target-queue-wait); see docs/capacity.md.", target)
		if len(r.Capacity) > maxRows {
			s.Note = fmt.Sprintf("%d queues, busiest first; %d not shown (-o json lists all).", len(r.Capacity), len(r.Capacity)-maxRows)
		}
		s.Quiet = fmt.Sprintf("%s modelled, none short of workers for a p99 wait under %s", printable.Plural(len(r.Capacity), "queue"), target)
		if len(said) > 0 {
			s.Quiet = saidQuiet(said, "short of workers", len(r.Capacity)-len(said), "modelled, none short")
		}
	}
	return s
}

func workersCell(c view.Capacity) string {
	if c.Workers == nil {
		return "unknown (--workers)"
	}
	switch {
	case c.WorkersFrom == "--workers":
		return Count(c.Workers) + " (--workers)"
	case strings.HasPrefix(c.WorkersFrom, "the default of "):
		return Count(c.Workers) + " (default " + strings.TrimPrefix(c.WorkersFrom, "the default of ") + ")"
	case strings.HasSuffix(c.WorkersFrom, " in the container's arguments"):
		return Count(c.Workers) + " (" + strings.TrimSuffix(c.WorkersFrom, " in the container's arguments") + " in args)"
	case strings.HasSuffix(c.WorkersFrom, " in the process's /flagz"):
		return Count(c.Workers) + " (" + strings.TrimSuffix(c.WorkersFrom, " in the process's /flagz") + " in /flagz)"
	}
	return Count(c.Workers)
}

// modelWait is the predicted p99, or "no bound" when the workers cannot keep up.
func modelWait(c view.Capacity) string {
	if c.PredictedWaitP99Seconds == nil && c.Utilisation != nil && *c.Utilisation >= 1 {
		return "no bound"
	}
	return Seconds(c.PredictedWaitP99Seconds)
}

func neededCell(c view.Capacity) string {
	if c.WorkersNeeded == nil {
		return "-"
	}
	n := fmt.Sprint(*c.WorkersNeeded)
	if c.OfferedIsFloor {
		n = ">= " + n
	}
	return n
}

// capacityNote says why more workers cannot help where more are needed, or that the advice is
// a floor.
func capacityNote(c view.Capacity) string {
	var parts []string
	short := c.WorkersNeeded != nil && (c.Workers == nil || float64(*c.WorkersNeeded) > *c.Workers)
	if !c.WorkersHelp && short {
		parts = append(parts, "more workers cannot help: "+strings.Join(c.Limits, "; "))
	}
	if c.OfferedIsFloor {
		parts = append(parts, "the load is partly hidden: a floor, read again after")
	}
	return shorten(strings.Join(parts, "; "), 120)
}

// headroomCell is how much more load the workers take before the p99 wait passes the target:
// "+101%", "at most +40%" when the load is a floor, "already over", "idle (takes 6.03/s)".
func headroomCell(c view.Capacity) string {
	switch {
	case c.MeasuredOver:
		return "already over"
	case c.Headroom == nil && c.MaxOfferedPerSecond != nil && c.OfferedPerSecond != nil && *c.OfferedPerSecond == 0:
		return "idle (takes " + Rate(c.MaxOfferedPerSecond) + "/s)"
	case c.Headroom == nil:
		return "-"
	case *c.Headroom <= 0:
		return "already over"
	case c.OfferedIsFloor:
		return fmt.Sprintf("at most +%.0f%%", 100**c.Headroom)
	}
	return fmt.Sprintf("+%.0f%%", 100**c.Headroom)
}

// short reports whether a queue needs more workers than it has (more than one where the
// workers are not known).
func short(c view.Capacity) bool {
	if c.WorkersNeeded == nil {
		return false
	}
	if c.Workers == nil {
		return *c.WorkersNeeded > 1
	}
	return float64(*c.WorkersNeeded) > *c.Workers
}
