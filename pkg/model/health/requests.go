package health

import (
	dto "github.com/prometheus/client_model/go"
)

// Request latency from both ends: the API server's per resource and verb, and the REST
// client's per verb (client-go's; controller-runtime's registry does not export it).
const (
	apiRequestDuration = "apiserver_request_duration_seconds"   // {verb, group, resource, subresource, scope, component, ...}
	restDuration       = "rest_client_request_duration_seconds" // {verb, host}
)

// APIRequestKey is the requests the API server served of one verb on one resource.
type APIRequestKey struct {
	// Verb is the API server's: GET, LIST, POST, PUT, PATCH, DELETE, APPLY, DELETECOLLECTION.
	Verb                         string
	Group, Resource, Subresource string
}

// longRunningVerbs are the verbs whose duration is the life of a stream, not a request's
// latency; apiRequestLabels are the labels of the API server's series that APIRequestKey
// holds. Reduced tells a parser the same.
var (
	longRunningVerbs = []string{"WATCH", "WATCHLIST", "CONNECT"}
	apiRequestLabels = []string{"verb", "group", "resource", "subresource"}
)

// longRunning is longRunningVerbs as a set.
var longRunning = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range longRunningVerbs {
		m[v] = true
	}
	return m
}()

// addRequests files one series of family name when it is a request-latency family: the API
// server's by verb and resource (long-running verbs left out), summed over the other labels,
// and the client's by verb, summed over hosts.
func (s *Snapshot) addRequests(name string, l map[string]string, m *dto.Metric) {
	switch name {
	case apiRequestDuration:
		if l["resource"] == "" || longRunning[l["verb"]] {
			return
		}
		if s.APIRequests == nil {
			s.APIRequests = map[APIRequestKey]*Histogram{}
		}
		k := APIRequestKey{Verb: l["verb"], Group: l["group"], Resource: l["resource"], Subresource: l["subresource"]}
		s.APIRequests[k] = addHistogram(s.APIRequests[k], m)
	case restDuration:
		if l["verb"] == "" {
			return
		}
		if s.Client.LatencyByVerb == nil {
			s.Client.LatencyByVerb = map[string]*Histogram{}
		}
		s.Client.LatencyByVerb[l["verb"]] = addHistogram(s.Client.LatencyByVerb[l["verb"]], m)
	}
}
