package health

import (
	dto "github.com/prometheus/client_model/go"
)

// The API server's admission webhook families (k8s.io/apiserver pkg/admission/metrics): one
// series per webhook (its name within its configuration), type ("validating", or "admit" for
// a mutating webhook), operation (CREATE, UPDATE, DELETE, CONNECT; a PATCH is an UPDATE) and
// whether it rejected. They hold no resource: what a webhook intercepts is in its
// configuration's rules. A webhook's series appear at its first call.
const (
	admissionLatency   = "apiserver_admission_webhook_admission_duration_seconds" // {name, type, operation, rejected}
	admissionRejection = "apiserver_admission_webhook_rejection_count"            // {name, type, operation, error_type, rejection_code}
)

// AdmissionKey names the calls of one webhook for one operation.
type AdmissionKey struct {
	Name, Type, Operation string
}

// AdmissionWebhook is what the API server measured of one webhook's calls for one operation.
type AdmissionWebhook struct {
	// Latency is the time the API server spent calling it, allowed and rejected calls summed.
	Latency *Histogram
	// Rejections are the rejections by error_type: calling_webhook_error (the call failed or
	// timed out), no_error (the webhook said no), apiserver_internal_error (counter).
	Rejections map[string]float64
}

// addAdmission files one series of family name when it is an admission webhook family;
// series without a webhook name are skipped.
func (s *Snapshot) addAdmission(name string, l map[string]string, v float64, m *dto.Metric) {
	if name != admissionLatency && name != admissionRejection {
		return
	}
	k := AdmissionKey{Name: l["name"], Type: l["type"], Operation: l["operation"]}
	if k.Name == "" {
		return
	}
	if s.Admission == nil {
		s.Admission = map[AdmissionKey]*AdmissionWebhook{}
	}
	w := s.Admission[k]
	if w == nil {
		w = &AdmissionWebhook{Rejections: map[string]float64{}}
		s.Admission[k] = w
	}
	switch name {
	case admissionLatency:
		w.Latency = addHistogram(w.Latency, m)
	case admissionRejection:
		w.Rejections[l["error_type"]] += v
	}
}
