package render

import (
	"fmt"
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// TargetTable writes the targets as kubectl-style columns; wide adds the workload, pod IP and
// why each way was chosen. Skipped pods and unreadable targets follow as their own rows.
func TargetTable(w io.Writer, l view.TargetList, wide bool) error {
	return targetTable(w, l, wide, false)
}

// targetTable is TargetTable, without its header line when noHeaders.
func targetTable(w io.Writer, l view.TargetList, wide, noHeaders bool) error {
	l = printable.Value(l)
	tw := newColumns(w)
	header := []string{"NAMESPACE", "NAME", "PORT", "SCHEME", "PATH", "VIA", "FOUND BY"}
	if wide {
		header = append(header, "WORKLOAD", "POD IP", "WHY THIS WAY")
	}
	if !noHeaders {
		row(tw, header)
	}
	for _, t := range l.Items {
		r := []string{dash(t.Namespace), t.Name, port(t), t.Scheme, t.Path, string(t.Via), t.Reason}
		if wide {
			r = append(r, dash(t.Workload), dash(t.PodIP), dash(t.ViaReason))
		}
		row(tw, r)
	}
	for _, s := range l.Skipped {
		r := []string{s.Namespace, s.Pod, "-", "-", "-", "skipped", s.Reason}
		if wide {
			r = append(r, "-", "-", "-")
		}
		row(tw, r)
	}
	for _, f := range l.Failed {
		r := []string{"-", f.Target, "-", "-", "-", "unreadable", f.Error}
		if wide {
			r = append(r, "-", "-", "-")
		}
		row(tw, r)
	}
	return tw.Flush()
}

func port(t target.Target) string {
	if t.Port == 0 {
		return "-"
	}
	if t.PortName != "" {
		return fmt.Sprintf("%d (%s)", t.Port, t.PortName)
	}
	return fmt.Sprint(t.Port)
}
