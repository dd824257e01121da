package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// goroutineSection shows where the workers of stuck, slow or saturated queues wait, from each
// target's goroutine dump: one row per group of workers with one stack, or the note that says
// why a dump was not read. It is shown only when a dump was asked for.
func goroutineSection(r view.Report) (section, bool) {
	if len(r.Goroutines) == 0 {
		return section{}, false
	}
	s := section{Title: "Goroutines: where the workers wait",
		Header: []string{"TARGET", "WORKERS", "STATE", "BLOCKED", "WAITS IN", "CALLED FROM", "CAUSE"},
		Drop:   []string{"STATE", "BLOCKED", "WAITS IN", "WORKERS"}}
	var notes []string
	for _, g := range r.Goroutines {
		for _, grp := range g.Groups {
			own, waits := "-", grp.Wait.Func
			if grp.Own != nil {
				own = fmt.Sprintf("%s (%s)", grp.Own.Func, fileLine(grp.Own.File, grp.Own.Line))
				if waits == grp.Own.Func {
					waits = "" // blocked in its own code (a channel, a select)
				}
			}
			s.Rows = append(s.Rows, []string{g.Target, fmt.Sprint(grp.Count), grp.State, blocked(grp.LongestSeconds),
				dash(waits), own, dash(string(grp.Cause))})
		}
		switch {
		case g.Note != "":
			notes = append(notes, g.Target+": "+g.Note+".")
		case len(g.Groups) == 0:
			notes = append(notes, fmt.Sprintf("%s: %d goroutines, none running an item.", g.Target, g.Goroutines))
		}
	}
	s.Define = "Read once from /debug/pprof/goroutine?debug=2 of the selected targets whose workers are stuck, slow or saturated (--no-profile: none); -o json has the frames."
	s.Note = strings.Join(notes, " ")
	if len(s.Rows) == 0 {
		s.Quiet, s.Note = strings.TrimSuffix(s.Note, "."), ""
	}
	return s, true
}

// blocked is how long a group has been blocked, as the runtime rounds it (whole minutes).
func blocked(secs float64) string {
	if secs < 60 {
		return "<1m"
	}
	return fmt.Sprintf("%.0fm", secs/60)
}

// fileLine is "file.go:42", the file's base name.
func fileLine(file string, line int) string {
	if i := strings.LastIndex(file, "/"); i >= 0 {
		file = file[i+1:]
	}
	if file == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", file, line)
}
