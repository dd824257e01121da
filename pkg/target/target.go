// Package target describes one metrics endpoint to scrape: where it is, how it was found and how
// it will be reached. Discovery produces targets; transports and the scraper consume them.
package target

import (
	"fmt"
	"net/url"
	"strings"
)

// Kind says what a target points at.
type Kind string

const (
	KindPod       Kind = "pod"       // a pod port, reached by proxy or port-forward
	KindService   Kind = "service"   // a service port, reached by the API server's service proxy
	KindAPIServer Kind = "apiserver" // the API server's own /metrics
	KindURL       Kind = "url"       // a URL scraped directly (--url)
	KindFile      Kind = "file"      // a saved page (--from-file)
	KindSeries    Kind = "series"    // series of one scrape target in a Prometheus server (--prometheus)
)

// Via names how a target is reached.
type Via string

const (
	ViaAuto        Via = "auto"
	ViaProxy       Via = "proxy"        // the API server's pod/service proxy
	ViaPortForward Via = "port-forward" // a port-forward to the pod, then HTTP(S) on loopback
	ViaDirect      Via = "direct"       // straight to a URL, or the API server's own endpoint
	ViaPrometheus  Via = "prometheus"   // not scraped: read from a Prometheus server's series
)

// Target is one endpoint to scrape.
type Target struct {
	Kind Kind `json:"kind"`
	// Cluster is the value of the cluster label of a target read from a Prometheus server
	// ("" when its series have none).
	Cluster   string `json:"cluster,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Name is the pod or service name, the URL, or the saved pages' name (--from-file).
	Name string `json:"name"`
	// Workload is the owner the pod belongs to, e.g. "deployment/foo"; empty when unknown.
	Workload  string `json:"workload,omitempty"`
	Container string `json:"container,omitempty"`
	Port      int32  `json:"port,omitempty"`
	PortName  string `json:"portName,omitempty"`
	Scheme    string `json:"scheme,omitempty"`
	Path      string `json:"path,omitempty"`
	PodIP     string `json:"podIP,omitempty"`
	// Ready is the pod's Ready condition (always true for other kinds).
	Ready bool `json:"ready"`
	// Reason says why discovery picked this target, e.g. "container port named metrics".
	Reason string `json:"reason"`
	// Job and Instance are the scrape job and instance labels of a KindSeries target.
	Job      string `json:"job,omitempty"`
	Instance string `json:"instance,omitempty"`
	// Via is how the target will be reached, and ViaReason why that way.
	Via       Via    `json:"via,omitempty"`
	ViaReason string `json:"viaReason,omitempty"`
}

// ID is the target's short unique name: "ns/pod:port", "svc/ns/name:port", "apiserver", the URL
// without credentials, the saved pages' name, or for series in a Prometheus server
// "[CLUSTER/]ns/pod:port" (the port from the instance label) or "[CLUSTER/]job/instance".
func (t Target) ID() string {
	switch t.Kind {
	case KindSeries:
		return t.seriesID()
	case KindPod:
		return fmt.Sprintf("%s/%s:%d", t.Namespace, t.Name, t.Port)
	case KindService:
		return fmt.Sprintf("svc/%s/%s:%d", t.Namespace, t.Name, t.Port)
	case KindAPIServer:
		return "apiserver"
	case KindURL:
		return RedactURL(t.Name)
	}
	return t.Name
}

// RedactURL removes user information and query values from a URL so that it can be shown.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.User != nil {
		u.User = url.User("xxxxx")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q.Set(k, "xxxxx")
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// HTTPS reports whether the endpoint speaks TLS.
func (t Target) HTTPS() bool { return strings.EqualFold(t.Scheme, "https") }

// seriesID names a target read from a Prometheus server like the live scrape of the same pod
// names it, with its cluster first when it has one.
func (t Target) seriesID() string {
	id := t.Job + "/" + t.Instance
	if t.Namespace != "" && t.Name != "" {
		id = t.Namespace + "/" + t.Name
		if t.Port > 0 {
			id += fmt.Sprintf(":%d", t.Port)
		}
	}
	if t.Cluster != "" {
		id = t.Cluster + "/" + id
	}
	return id
}
