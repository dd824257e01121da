package report

import (
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// capacityRows models the queues of one target.
func capacityRows(ft findings.Target, th findings.Thresholds) []view.Capacity {
	var out []view.Capacity
	for _, qc := range findings.Capacity(ft, th) {
		in, e := qc.In, qc.Estimate
		row := view.Capacity{Target: qc.Target, Queue: qc.Queue, Loop: string(e.Loop), AddsPerSecond: view.Num(in.Adds),
			OfferedPerSecond: view.Num(e.Offered), OfferedIsFloor: e.LowerBound, ServiceMeanSeconds: view.Num(in.ServiceMean),
			ServiceP99Seconds: view.Num(in.ServiceP99), ServiceSpread: view.Num(in.ServiceSpread), Workers: view.Num(in.Workers),
			WorkersFrom: in.WorkersFrom, Utilisation: view.Num(e.Utilisation), PredictedWaitMeanSeconds: view.Num(e.Predicted.Mean),
			PredictedWaitP99Seconds: view.Num(e.Predicted.P99), MeasuredWaitMeanSeconds: view.Num(in.WaitMean),
			MeasuredWaitP99Seconds: view.Num(in.WaitP99), TargetWaitP99Seconds: th.TargetQueueWait.Seconds(),
			WorkersHelp: e.Helps, Limits: in.Limits, Notes: e.Notes,
			MaxOfferedPerSecond: view.Num(e.MaxOffered), Headroom: view.Num(e.Headroom()), HeadroomNote: capacity.HeadroomNote(e, in.Limits)}
		if math.IsNaN(in.Workers) {
			row.WorkersFrom = ""
		}
		if e.WorkersNeeded > 0 {
			n := e.WorkersNeeded
			row.WorkersNeeded = &n
		}
		out = append(out, row)
	}
	return out
}
