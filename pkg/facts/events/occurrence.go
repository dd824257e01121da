package events

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
)

// occurrence is what the grouping reads of one event, whichever API served it.
type occurrence struct {
	typ, reason, message string
	// reporter is reportingController; component the older source.component.
	reporter, component string
	regarding           corev1.ObjectReference
	// last is its last occurrence, count how often it happened (at least once). The API's
	// counts are int32; groups sum them, so they are held as int64.
	last  time.Time
	count int64
}

// fromCore reads a core/v1 event: its last occurrence is the latest of its series, last
// timestamp, event time and creation; its count its series' count, else its count.
func fromCore(e *corev1.Event) occurrence {
	o := occurrence{typ: e.Type, reason: e.Reason, message: e.Message, reporter: e.ReportingController,
		component: e.Source.Component, regarding: e.InvolvedObject,
		last: latest(e.CreationTimestamp.Time, e.LastTimestamp.Time, e.EventTime.Time), count: int64(e.Count)}
	if e.Series != nil {
		return o.series(e.Series.LastObservedTime.Time, e.Series.Count)
	}
	return o.series(time.Time{}, 1)
}

// fromV1 reads an events.k8s.io/v1 event the same way: note is its message, regarding its
// object, and the deprecated fields hold what an older recorder wrote through core/v1.
func fromV1(e *eventsv1.Event) occurrence {
	o := occurrence{typ: e.Type, reason: e.Reason, message: e.Note, reporter: e.ReportingController,
		component: e.DeprecatedSource.Component, regarding: e.Regarding,
		last: latest(e.CreationTimestamp.Time, e.DeprecatedLastTimestamp.Time, e.EventTime.Time), count: int64(e.DeprecatedCount)}
	if e.Series != nil {
		return o.series(e.Series.LastObservedTime.Time, e.Series.Count)
	}
	return o.series(time.Time{}, 1)
}

// series folds in what an event's series says (its last observation and count; none: the
// zero time and 1), and counts the event at least once.
func (o occurrence) series(last time.Time, count int32) occurrence {
	o.last = latest(o.last, last)
	o.count = max(o.count, int64(count), 1)
	return o
}

// latest is the latest of ts.
func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}
