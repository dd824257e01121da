package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// QueueTable writes l as kubectl-style plain columns: upper-case headers, no borders, three
// spaces between columns (the same text/tabwriter settings as kubectl get), in width columns
// (0: DefaultWidth): the columns that do not fit are left out, the least needed first
// (queueDrop); wide writes them all and adds WORKERS, BY PRIORITY, ERRORS/s, the p50s, WORK
// MEAN, LEADER and REASON. WINDOW says what each row's rates and quantiles are over (see
// view.QueueList.Window). When the rows carry their queue-wait service level (top), WAIT SLO
// follows WINDOW: its verdict. A quantile only known to be at least the highest finite bucket
// bound reads ">= 100ms". Failed targets are ERROR rows; the standby replicas folded into a
// leader's rows are one STANDBY row per workload, last. Over a fleet (several clusters read) a
// CLUSTER column comes first and TARGET is named within its cluster. Under the table, when the
// server may have answered from downsampled data, a line says the resolution (left out with
// the header, --no-headers).
func QueueTable(w io.Writer, l view.QueueList, wide bool, width int) error {
	return queueTable(w, l, wide, ListOptions{Width: width})
}

// queueDrop is the order the queue table leaves its columns out in to fit a width: the
// detail first, then the figures a STATUS stands for. TARGET goes only when every row is of
// one target, as kubectl leaves out NAMESPACE within one (queueDropOf).
var queueDrop = []string{"LONGEST", "UNFINISHED", "RETRIES/s", "TARGET", "WINDOW", "WORK p99", "ADDS/s", "QUEUE p99", "DEPTH"}

// queueTable is QueueTable with kubectl's list options (--no-headers) and the width.
func queueTable(w io.Writer, l view.QueueList, wide bool, o ListOptions) error {
	l = printable.Value(l)
	fleet := len(l.Clusters) > 1
	header := []string{"TARGET", "QUEUE", "DEPTH", "ADDS/s", "RETRIES/s", "QUEUE p99", "WORK p99", "UNFINISHED", "LONGEST", "STATUS", "WINDOW"}
	slo := hasSLO(l)
	if slo {
		header = withSLO(header, "WAIT SLO")
	}
	if wide {
		header = append(header, "WORKERS", "BY PRIORITY", "ERRORS/s", "QUEUE p50", "WORK p50", "WORK MEAN", "LEADER", "REASON")
	}
	var rows [][]string
	add := func(cluster string, r []string) {
		if fleet {
			cl, id := splitCluster(cluster, r[0])
			r = append([]string{cl, id}, r[1:]...)
		}
		rows = append(rows, r)
	}
	for _, e := range l.Errors {
		// A target with no figures at all is one ERROR row; a partial one (its second sample
		// failed) keeps its rows and the error is shown on stderr by the caller.
		if hasItems(l, e.Target) {
			continue
		}
		r := []string{e.Target, "-", "-", "-", "-", "-", "-", "-", "-", "ERROR", "-"}
		if slo {
			r = withSLO(r, "-")
		}
		if wide {
			r = append(r, "-", "-", "-", "-", "-", "-", "-", e.Error)
		}
		add(e.Cluster, r)
	}
	for _, it := range l.Items {
		r := []string{it.Target, it.Queue, Count(it.Depth), Rate(it.AddsPerSecond), Rate(it.RetriesPerSecond),
			Quantile(it.QueueP99Seconds, it.QueueP99AtLeast), Quantile(it.WorkP99Seconds, it.WorkP99AtLeast), Seconds(it.UnfinishedWorkSeconds),
			Seconds(it.LongestRunningSeconds), it.Status, it.Window}
		if slo {
			r = withSLO(r, SLOVerdict(it.QueueWait))
		}
		if wide {
			r = append(r, Workers(it.ActiveWorkers, it.MaxWorkers), ByPriority(it.DepthByPriority), Rate(it.ReconcileErrorsPerSecond),
				Quantile(it.QueueP50Seconds, it.QueueP50AtLeast), Quantile(it.WorkP50Seconds, it.WorkP50AtLeast), Seconds(it.WorkMeanSeconds),
				leader(it.Leader), dash(it.Reason))
		}
		add(it.Cluster, r)
	}
	for _, g := range l.Replicas {
		folded := g.Folded()
		if len(folded) == 0 {
			continue
		}
		r := []string{strings.Join(folded, ","), "-", "-", "-", "-", "-", "-", "-", "-", string(health.StatusStandby), "-"}
		if slo {
			r = withSLO(r, "-")
		}
		if wide {
			r = append(r, "-", "-", "-", "-", "-", "-", "no", StandbyReason(g))
		}
		add("", r)
	}
	if fleet {
		header = append([]string{"CLUSTER"}, header...)
	}
	if !wide {
		header, rows = fitTable(header, rows, o.Width, queueDropOf(rows, fleet))
	}
	tw := newColumns(w)
	if !o.NoHeaders {
		row(tw, header)
	}
	for _, r := range rows {
		row(tw, r)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l.ResolutionNote == "" || o.NoHeaders {
		return nil
	}
	_, err := io.WriteString(w, wrap("Source resolution: "+l.ResolutionNote, "", widthOr(o.Width)))
	return err
}

// queueDropOf is queueDrop, without TARGET unless every row is of the same target (and no
// cluster tells them apart).
func queueDropOf(rows [][]string, fleet bool) []string {
	one := !fleet && len(rows) > 0
	for _, r := range rows {
		one = one && r[0] == rows[0][0]
	}
	if one {
		return queueDrop
	}
	return slices.DeleteFunc(slices.Clone(queueDrop), func(h string) bool { return h == "TARGET" })
}

// StandbyReason says, in the REASON column and on stderr, why a group's standbys have no rows.
func StandbyReason(g model.ReplicaGroup) string {
	n := len(g.Folded())
	return fmt.Sprintf("%s of %s folded into the rows of the leader %s (told by %s): a standby runs no controllers, its queues are empty or absent",
		printable.Plural(n, "standby replica"), g.Workload, g.Leader, g.LeaderFrom)
}

// cellBreaks turns a tab or newline inside a cell, which would break the columns, into a blank.
var cellBreaks = strings.NewReplacer("\t", " ", "\n", " ")

func row(w io.Writer, cells []string) {
	for i, c := range cells {
		cells[i] = cellBreaks.Replace(c)
	}
	_, _ = io.WriteString(w, strings.Join(cells, "\t")+"\n")
}

func hasItems(l view.QueueList, target string) bool {
	for _, it := range l.Items {
		if it.Target == target {
			return true
		}
	}
	return false
}

func leader(b *bool) string {
	switch {
	case b == nil:
		return "-"
	case *b:
		return "yes"
	}
	return "no"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
