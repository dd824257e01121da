package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// logSection shows what the controllers' logs say: one row per failing object and error,
// throttling, panic, leader-election loss or cache sync timeout, and the note that says why a
// log was not read. It is shown only when a log was read or tried.
func logSection(r view.Report) (section, bool) {
	if len(r.Logs) == 0 {
		return section{}, false
	}
	s := section{Title: "Log: what the controllers' logs say",
		Header: []string{"TARGET", "WHAT", "CONTROLLER", "OBJECT", "COUNT", "LAST", "DETAIL"},
		Drop:   []string{"LAST", "CONTROLLER"}, Cut: "DETAIL"}
	var notes []string
	quiet := 0 // logs read with nothing to report
	for _, l := range r.Logs {
		s.Rows = append(s.Rows, logRows(l)...)
		switch {
		case l.Note != "":
			notes = append(notes, l.Target+": "+l.Note+".")
		case len(logRows(l)) == 0:
			notes = append(notes, fmt.Sprintf("%s: %d lines of %s, nothing to report.", l.Target, l.Lines, logName(l)))
			quiet++
		}
		if l.Dropped > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d more failing objects not shown.", l.Target, l.Dropped))
		}
	}
	s.Define = "Read once from the log of the leader's container since the window's start less 2m (--no-logs: none); the log's lines are not kept."
	s.Note = strings.Join(notes, " ")
	if len(s.Rows) == 0 && quiet == len(r.Logs) {
		s.Quiet, s.Note = strings.TrimSuffix(s.Note, "."), ""
	}
	return s, true
}

// logRows are the rows of one target's log.
func logRows(l view.Log) [][]string {
	var rows [][]string
	for i, f := range l.Failures {
		if i == maxRows {
			break
		}
		rows = append(rows, []string{l.Target, "Reconciler error", dash(f.Controller), dash(f.Object), fmt.Sprint(f.Count), clock(f.Last), dash(f.Error)})
	}
	if t := l.Throttling; t != nil {
		rows = append(rows, []string{l.Target, "client-side throttling", "-", "-", fmt.Sprint(t.Count), clock(t.Last),
			fmt.Sprintf("longest wait %.1fs", t.LongestSeconds)})
	}
	for _, p := range l.Panics {
		detail := p.Message
		if len(p.Frames) > 0 {
			detail += " at " + strings.Join(p.Frames[:min(3, len(p.Frames))], " < ")
		}
		rows = append(rows, []string{l.Target, "panic", dash(p.Controller), "-", fmt.Sprint(p.Count), clock(p.Last), detail})
	}
	if o := l.LeaderLost; o != nil {
		rows = append(rows, []string{l.Target, "leader election lost", "-", "-", fmt.Sprint(o.Count), clock(o.Last), dash(o.Message)})
	}
	for _, o := range l.CacheSyncTimeouts {
		rows = append(rows, []string{l.Target, "cache sync timeout", dash(o.Controller), "-", fmt.Sprint(o.Count), clock(o.Last), dash(o.Message)})
	}
	return rows
}

// logName names whose log was read: "ops/op-0 (manager)".
func logName(l view.Log) string {
	if l.Container == "" {
		return l.Pod
	}
	return l.Pod + " (" + l.Container + ")"
}

// clock is a log line's time of day, UTC; "-" when unknown.
func clock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("15:04:05")
}
