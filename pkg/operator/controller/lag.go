package controller

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// LagMetricName is the name of the event-to-handler lag histogram.
const LagMetricName = "ctrldiag_operator_event_handler_lag_seconds"

var (
	lagHistogram = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: LagMetricName,
		Help: "Time from an object's last change (annotation " + AnnotationChangedAt +
			", else the newest managedFields time, else creation) to the controller's event handler seeing it.",
		Buckets: prometheus.ExponentialBucketsRange(0.001, 300, 16),
	}, []string{"controller", "resource", "event"})
	registerLag sync.Once
)

// changedAt is the best known time of the object's last change: the annotation a writer put
// there (nanosecond precision), else the newest managedFields entry (second precision), else
// its creation.
func changedAt(obj client.Object) time.Time {
	if v, ok := obj.GetAnnotations()[AnnotationChangedAt]; ok {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t
		}
	}
	var newest time.Time
	for _, mf := range obj.GetManagedFields() {
		if mf.Time != nil && mf.Time.After(newest) {
			newest = mf.Time.Time
		}
	}
	if !newest.IsZero() {
		return newest
	}
	return obj.GetCreationTimestamp().Time
}

// lagObserver wraps an event handler and records, for each event, how long after the object's
// change the handler saw it.
type lagObserver struct {
	next       handler.EventHandler
	controller string
	resource   string
	now        func() time.Time
}

// observeLag returns next wrapped so that it records the event-to-handler lag of resource.
func observeLag(controllerName, resource string, next handler.EventHandler) handler.EventHandler {
	registerLag.Do(func() { ctrlmetrics.Registry.MustRegister(lagHistogram) })
	return &lagObserver{next: next, controller: controllerName, resource: resource, now: time.Now}
}

func (l *lagObserver) observe(ev string, obj client.Object) {
	if obj == nil {
		return
	}
	t := changedAt(obj)
	if t.IsZero() {
		return
	}
	lag := l.now().Sub(t).Seconds()
	if lag < 0 {
		lag = 0 // clocks of writer and operator disagree
	}
	lagHistogram.WithLabelValues(l.controller, l.resource, ev).Observe(lag)
}

type queue = workqueue.TypedRateLimitingInterface[reconcile.Request]

func (l *lagObserver) Create(ctx context.Context, e event.CreateEvent, q queue) {
	l.observe("create", e.Object)
	l.next.Create(ctx, e, q)
}

func (l *lagObserver) Update(ctx context.Context, e event.UpdateEvent, q queue) {
	l.observe("update", e.ObjectNew)
	l.next.Update(ctx, e, q)
}

func (l *lagObserver) Delete(ctx context.Context, e event.DeleteEvent, q queue) {
	l.next.Delete(ctx, e, q) // a deletion has no change time on the object
}

func (l *lagObserver) Generic(ctx context.Context, e event.GenericEvent, q queue) {
	l.next.Generic(ctx, e, q)
}
