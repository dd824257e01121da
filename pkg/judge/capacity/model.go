package capacity

import (
	"fmt"
	"math"
)

// Loop says where a queue's items come from, which decides how its offered load is read.
type Loop string

const (
	// Open: items arrive from events; the measured adds are the offered load.
	Open Loop = "open"
	// Closed: most reconciles end in requeue_after, so every object comes back by itself after
	// a period; the offered load is objects / (period + service time).
	Closed Loop = "closed"
	// Saturated: the workers are always busy and items wait, so the adds (held down by the
	// workers, and merged while an item waits) understate the load.
	Saturated Loop = "saturated"
)

// Input is what the metrics say about one queue over the window. Unknown figures are NaN.
type Input struct {
	// Window is the time between the two samples, in seconds.
	Window float64
	// Adds and Completions are per second over the window; Completed is the count of items
	// worked on in the window, which must reach Options.MinEvents.
	Adds, Completions, Completed float64
	// Depth and DepthBefore are the ready items at the second and first sample; Busy the
	// workers busy at the second.
	Depth, DepthBefore, Busy float64
	// ServiceMean and ServiceP99 are the work duration's mean (sum/count) and p99 over the
	// window, in seconds; ServiceSpread its squared coefficient of variation (SpreadOf).
	ServiceMean, ServiceP99, ServiceSpread float64
	// Workers are the queue's workers; WorkersFrom says where the number comes from.
	Workers     float64
	WorkersFrom string
	// WaitMean and WaitP99 are the measured queue wait (queue duration) over the window.
	WaitMean, WaitP99 float64
	// RequeueAfterShare is the share of reconciles that ended in requeue_after.
	RequeueAfterShare float64
	// Objects are the objects the controller reconciles (the objects view).
	Objects float64
	// Changes are the objects' changes a second over the window, counted at the API server
	// (creations, deletions, spec and metadata changes): the events the controller is handed
	// before its queue merges them.
	Changes float64
	// Limits are why more workers cannot help (throttling, API errors, CPU at the limit).
	Limits []string
	// Notes are what else the reading of the load should say (a hot key that is not the
	// bottleneck).
	Notes []string
}

// Options are the target and the evidence the model needs.
type Options struct {
	// TargetWait is the p99 queue wait to meet, in seconds.
	TargetWait float64
	// MinEvents is how many completions in the window a queue needs to be modelled.
	MinEvents float64
	// ClosedShare: a requeue_after share at or above it makes the loop closed.
	ClosedShare float64
}

// saturatedUtilisation: busy workers doing this share of their capacity, with items waiting,
// are saturated (the measured ρ cannot exceed 1: it settles just under).
const saturatedUtilisation = 0.9

// Estimate is the model's reading of one queue. Unknown figures are NaN.
type Estimate struct {
	Loop Loop
	// Offered is the load in items a second the workers must serve: the adds in an open loop,
	// objects / period in a closed one, completions plus the backlog's growth (or what the
	// objects' rate of return says) when saturated.
	Offered float64
	// LowerBound: the offered load is at least Offered, not more is known (every object
	// already waits, or the objects were not counted): the advice is a floor.
	LowerBound bool
	// Utilisation is Offered × mean service time / workers.
	Utilisation float64
	// Predicted is the model's queue wait with the present workers.
	Predicted Wait
	// WorkersNeeded is the fewest workers whose predicted p99 wait meets the target; 0 when
	// unknown.
	WorkersNeeded int
	// MaxOffered is the most load the present workers take while the predicted p99 wait meets
	// the target (MaxLoad); NaN when the workers are unknown.
	MaxOffered float64
	// Helps is false when something other than the workers limits the queue (Limits).
	Helps bool
	// Notes say how the load was read, in words with the numbers.
	Notes []string
}

// Model reads one queue; ok is false when the window holds fewer than MinEvents completions
// or no service time.
func Model(in Input, o Options) (e Estimate, ok bool) {
	if !(in.Completed >= o.MinEvents) || !(in.ServiceMean > 0) || !(in.Window > 0) {
		return Estimate{}, false
	}
	s := in.ServiceMean
	e = Estimate{Loop: Open, Offered: in.Adds, Helps: len(in.Limits) == 0}
	var implausible string
	if in.Workers > MaxWorkers {
		implausible = fmt.Sprintf("the workers read (%.3g, from %s) are more than any process runs (at most %d): the count is implausible, so the queue is modelled as if it were unknown",
			in.Workers, in.WorkersFrom, MaxWorkers)
		in.Workers = math.NaN()
	}
	busyShare := math.NaN()
	if in.Workers > 0 {
		busyShare = math.Max(nanZero(in.Adds), nanZero(in.Completions)) * s / in.Workers
	}
	switch {
	case in.RequeueAfterShare >= o.ClosedShare:
		e.Loop = Closed
		e.Offered, e.Notes = closedLoad(in)
	case busyShare >= saturatedUtilisation && in.Depth > 0:
		e.Loop = Saturated
		e.Offered, e.LowerBound, e.Notes = saturatedLoad(in)
	default:
		e.Notes = []string{fmt.Sprintf("open loop: the offered load is the measured adds, %.3g/s", in.Adds)}
	}
	e.Utilisation = math.NaN()
	e.Predicted = Wait{Mean: math.NaN(), P99: math.NaN()}
	e.MaxOffered = math.NaN()
	if in.Workers > 0 {
		e.Utilisation = e.Offered * s / in.Workers
		e.Predicted = MMcWait(e.Offered, s, int(math.Round(in.Workers)), in.ServiceSpread)
		e.MaxOffered = MaxLoad(s, int(math.Round(in.Workers)), spreadOrExponential(in.ServiceSpread), o.TargetWait)
	}
	e.WorkersNeeded = WorkersFor(e.Offered, s, in.ServiceSpread, o.TargetWait)
	e.Notes = append(e.Notes, in.Notes...)
	if implausible != "" {
		e.Notes = append(e.Notes, implausible)
	}
	return e, true
}

// closedLoad is the offered load of a closed loop. Each of N objects is in one of three
// places: waiting in the queue (the depth), in a worker (busy), or sleeping out its period P
// before it is requeued; by Little's law the sleeping ones are completions × P, so
// P = (N − depth − busy) / completions, and with no wait the workers would see N / (P + S).
// The depth gauge is used rather than the measured wait, which misses the waits of items still
// queued at the second sample (in a saturated loop, the longest ones). Without the depth, the
// wait: completions = N / (P + W + S), so P + S = N / completions − W.
func closedLoad(in Input) (float64, []string) {
	if !(in.Objects > 0) || !(in.Completions > 0) {
		return in.Completions, []string{fmt.Sprintf("closed loop (%.0f%% of reconciles end in requeue_after), objects not counted: the offered load is taken as the completions, %.3g/s, which the workers may hold down", 100*in.RequeueAfterShare, in.Completions)}
	}
	var cycle float64
	how := "less the measured wait"
	if waiting := meanDepth(in); !math.IsNaN(waiting) {
		sleeping := math.Max(0, in.Objects-waiting-nanZero(in.Busy))
		cycle = sleeping/in.Completions + in.ServiceMean
		how = fmt.Sprintf("%.0f of them neither waiting nor in work", sleeping)
	} else {
		cycle = in.Objects/in.Completions - nanZero(in.WaitMean)
	}
	if cycle < in.ServiceMean {
		cycle = in.ServiceMean
	}
	load := in.Objects / cycle
	return load, []string{fmt.Sprintf("closed loop (%.0f%% of reconciles end in requeue_after): %.0f objects come back every %.3gs (period + service, from %.3g completions/s, %s), an offered load of %.3g/s",
		100*in.RequeueAfterShare, in.Objects, cycle, in.Completions, how, load)}
}

// meanDepth is the mean depth of the two samples, the depth with one of them, NaN with none.
func meanDepth(in Input) float64 {
	switch {
	case math.IsNaN(in.Depth):
		return in.DepthBefore
	case math.IsNaN(in.DepthBefore):
		return in.Depth
	}
	return (in.Depth + in.DepthBefore) / 2
}

// saturatedLoad is the offered load of a queue whose workers never rest: at least the
// completions plus the backlog's growth. Where the objects' changes were counted at the API
// server over the window and are more than that, they are the load: the queue merged the
// rest. Otherwise, with the objects counted, the load is inferred: the objects neither
// waiting (the mean depth of the two samples) nor in work (idle) come back at the rate of the
// adds, so each object changes at about completions/idle a second and all of them at N × that.
// That is exact for changes that come at random, but changes on a fixed schedule, which a
// FIFO queue then serves in the same order, leave objects idle only briefly and can read the
// load several times too high; the idle objects are also counted at two instants only, and
// few of them (k) are a noisy count: the load is read with the count's upper margin,
// k + 2√k + 2 (about two standard deviations of a Poisson count), and under minIdle idle
// objects the advice is a floor. When every object already waits, nothing more can be
// known: the load is at least the completions.
func saturatedLoad(in Input) (float64, bool, []string) {
	rise := math.Max(0, nanZero(in.Depth-in.DepthBefore)) / in.Window
	load := in.Completions + rise
	note := fmt.Sprintf("saturated: the workers hold the adds down; the offered load is at least the completions %.3g/s plus the backlog's growth %.3g/s", in.Completions, rise)
	if in.Changes > load {
		// The changes are more than the workers serve: the queue merged the rest. They are
		// counted, not inferred, so they are the load (events of other kinds, such as owned
		// objects, come on top and are not counted).
		notes := []string{fmt.Sprintf("saturated: the workers serve %.3g items/s and hold the adds down; the objects changed %.3g times a second at the API server over the window (creations, deletions, spec and metadata changes), which is the offered load", in.Completions, in.Changes)}
		return in.Changes, false, notes
	}
	if !(in.Objects > 0) {
		return load, true, []string{note, "objects not counted: adds merged while an item waits are not seen, so the advice is a floor; apply it and read again"}
	}
	// The objects waiting over the window: the mean of the two samples, which a single gauge
	// reading of a queue that fills and drains by the second would make noisy.
	idle := in.Objects - meanDepth(in) - nanZero(in.Busy)
	if idle < 1 {
		return load, true, []string{note, fmt.Sprintf("all %.0f objects wait or are in work: how often they change cannot be seen, so the advice is a floor; apply it and read again", in.Objects)}
	}
	margin := idle + 2*math.Sqrt(idle) + 2
	if byObjects := in.Objects * in.Completions / margin; byObjects > load {
		load = byObjects
		note = fmt.Sprintf("saturated: the workers hold the adds down; %.0f of %.0f objects are neither waiting nor in work and come back at %.3g/s, so all of them change about %.3g times a second (read with the count's margin, %.3g idle)", idle, in.Objects, in.Completions, load, margin)
	}
	if idle < minIdle {
		return load, true, []string{note, fmt.Sprintf("fewer than %d objects are out of the queue: how often they change is uncertain, so the advice is a floor; apply it and read again", minIdle)}
	}
	return load, false, []string{note}
}

// minIdle is the fewest idle objects of a saturated queue whose count gives the load, not a
// floor of it.
const minIdle = 10

func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
