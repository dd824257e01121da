package health

import (
	dto "github.com/prometheus/client_model/go"
)

// API Priority and Fairness families of the API server (k8s.io/apiserver
// pkg/util/flowcontrol/metrics), read to tell which priority level throttles whom.
const (
	apfRejected = "apiserver_flowcontrol_rejected_requests_total"       // {priority_level, flow_schema, reason}
	apfInQueue  = "apiserver_flowcontrol_current_inqueue_requests"      // {priority_level, flow_schema}
	apfWait     = "apiserver_flowcontrol_request_wait_duration_seconds" // {priority_level, flow_schema, execute}
)

// Flow names the requests one FlowSchema sends to one priority level.
type Flow struct {
	PriorityLevel, FlowSchema string
}

// Rejection names the requests of one flow that API Priority and Fairness rejected (429) for
// one reason: concurrency-limit (no queues), queue-full, time-out (waited too long), cancelled.
type Rejection struct {
	Flow
	Reason string
}

// FlowControl is the API server's API Priority and Fairness: what it rejected, what waits in
// its queues now and how long requests waited. Empty on every other target.
type FlowControl struct {
	Rejected map[Rejection]float64 // counter
	InQueue  map[Flow]float64      // gauge: requests waiting now
	// Wait is the time requests spent in a queue, summed over execute="true" (then ran) and
	// "false" (then rejected). Exempt levels and levels that reject without queuing observe none.
	Wait map[Flow]*Histogram
}

// addFlowControl files one series of family name when it is an APF family; series without a
// priority level are skipped.
func (s *Snapshot) addFlowControl(name string, l map[string]string, v float64, m *dto.Metric) {
	if name != apfRejected && name != apfInQueue && name != apfWait {
		return
	}
	f := Flow{PriorityLevel: l["priority_level"], FlowSchema: l["flow_schema"]}
	if f.PriorityLevel == "" {
		return
	}
	fc := &s.FlowControl
	switch name {
	case apfRejected:
		if fc.Rejected == nil {
			fc.Rejected = map[Rejection]float64{}
		}
		fc.Rejected[Rejection{Flow: f, Reason: l["reason"]}] += v
	case apfInQueue:
		if fc.InQueue == nil {
			fc.InQueue = map[Flow]float64{}
		}
		fc.InQueue[f] += v
	case apfWait:
		if fc.Wait == nil {
			fc.Wait = map[Flow]*Histogram{}
		}
		fc.Wait[f] = addHistogram(fc.Wait[f], m)
	}
}
