package health

import (
	"math"

	dto "github.com/prometheus/client_model/go"
)

// controller-runtime's admission webhook families (pkg/webhook/internal/metrics), present only
// on targets that serve webhooks. Latency buckets are 1e-8 .. 1000 s, a factor of 10 apart.
const (
	crWebhookLatency  = "controller_runtime_webhook_latency_seconds"    // {webhook}
	crWebhookRequests = "controller_runtime_webhook_requests_total"     // {webhook, code}
	crWebhookInFlight = "controller_runtime_webhook_requests_in_flight" // {webhook}
)

// Webhook is one admission webhook path a controller-runtime process serves.
type Webhook struct {
	Path     string
	Latency  *Histogram
	ByCode   map[string]float64 // requests_total by HTTP status code (counter)
	InFlight float64            // NaN when the page has no such series
}

// addWebhook files one series of family name when it is a webhook family; series without a
// webhook path are skipped.
func (s *Snapshot) addWebhook(name string, l map[string]string, v float64, m *dto.Metric) {
	if name != crWebhookLatency && name != crWebhookRequests && name != crWebhookInFlight {
		return
	}
	path := l["webhook"]
	if path == "" {
		return
	}
	if s.Webhooks == nil {
		s.Webhooks = map[string]*Webhook{}
	}
	w := s.Webhooks[path]
	if w == nil {
		w = &Webhook{Path: path, ByCode: map[string]float64{}, InFlight: math.NaN()}
		s.Webhooks[path] = w
	}
	switch name {
	case crWebhookLatency:
		w.Latency = addHistogram(w.Latency, m)
	case crWebhookRequests:
		w.ByCode[l["code"]] += v
	case crWebhookInFlight:
		w.InFlight = sum(w.InFlight, v)
	}
}
