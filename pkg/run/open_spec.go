package run

import "time"

// Spec says what to read and how, in plain values: what the source flags mean once checked.
// Open never changes it.
type Spec struct {
	// URLs and Files are the endpoints and saved pages read directly (Files: a path, or
	// BEFORE,AFTER; "-" is standard input).
	URLs  []string
	Files []string
	// Cluster is true when the cluster is read; Namespace ("" for all), Selector and Explicit
	// (the TARGET arguments) say where targets are looked for there.
	Cluster          bool
	Namespace        string
	Selector         string
	Explicit         []string
	IncludeAPIServer bool
	// Port, Path and Scheme override what discovery finds; Via is how pods are reached.
	Port   int32
	Path   string
	Scheme string
	Via    string
	// Token is the metrics endpoints' bearer token; TokenFromSA a service account
	// NAMESPACE/NAME to mint one for; UseKubeconfigToken sends the kubeconfig user's.
	Token              string
	TokenFromSA        string
	UseKubeconfigToken bool
	// CAFile and Insecure say how https metrics endpoints are verified.
	CAFile   string
	Insecure bool
	// KeepForwards keeps each pod's port-forward open from one reading to the next.
	KeepForwards bool

	// Interval is the time between the two samples (0: one); Timeout bounds one page and
	// every API call unless the kubeconfig sets its own; MaxBodyBytes the size of a page;
	// Concurrency how many targets are read at once; Deadline the whole run, counted from its
	// start (source.Clock).
	Interval     time.Duration
	Timeout      time.Duration
	MaxBodyBytes int64
	Concurrency  int
	Deadline     time.Duration

	// FromSnapshot, when set, is the snapshot file read instead of everything else.
	FromSnapshot string
	// Prometheus, when its URL is set, is the server read instead of the targets.
	Prometheus Prometheus
}

// Prometheus is a server that speaks the Prometheus HTTP API.
type Prometheus struct {
	// URL is its base URL, or svc/NAMESPACE/NAME:PORT through the API server's service proxy.
	URL string
	// Token is sent as a bearer token; User and Password as basic auth; Headers with every
	// query. CAFile and Insecure say how an https server is verified.
	Token    string
	User     string
	Password string
	Headers  map[string]string
	CAFile   string
	Insecure bool
	// Timeout bounds one query; MaxSeries the series of one answer.
	Timeout   time.Duration
	MaxSeries int
	// At is the end of the window, Window its length; Now is when At was asked about.
	At     time.Time
	Window time.Duration
	Now    time.Time
	// ClusterLabel tells clusters apart; Clusters, when set, narrows to those values.
	ClusterLabel string
	Clusters     []string
	// ReplicaLabels tell the replicas of an HA pair apart: one replica's series are read of
	// each target. AskDedup also asks the server to deduplicate over them (Thanos Query).
	ReplicaLabels []string
	AskDedup      bool
	// NoPartial asks the server to fail rather than answer without some of its stores
	// (Thanos Query's partial_response=false).
	NoPartial bool
	// MaxSourceResolution is --max-source-resolution: auto (chosen from the window, see
	// promsource.AutoResolution), raw, 5m or 1h; "" is auto.
	MaxSourceResolution string
	// WithCluster adds the kubeconfig's cluster to the series when it is the one read and
	// the window ends about now (pods, objects and Leases).
	WithCluster bool
	// History makes the server only where the targets' recent history is asked: the targets
	// themselves are read. HistoryStep is the time between two points, HistoryPoints how many.
	History       bool
	HistoryStep   time.Duration
	HistoryPoints int
}
