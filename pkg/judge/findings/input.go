package findings

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Target is what the rules know about one scraped endpoint.
type Target struct {
	ID   string
	Kind Kind
	// ScrapeError is why the target could not be read; the rest is then empty.
	ScrapeError string
	// Prev is nil with one sample; Window is the time between Prev and Cur. When the target
	// restarted between its samples, Prev is the later process at its start (an empty
	// snapshot) and Window the time since then, or Prev is nil when that start is unknown.
	Prev, Cur *health.Snapshot
	Window    time.Duration
	// Restart says why the two samples were of different processes ("" when they were one);
	// restarted is set when the figures were taken since the restart because of it.
	Restart   string
	restarted bool
	// WindowWrong says why the work done contradicts the window between the samples ("" when
	// it does not); the figures are then the later sample's lifetime ones.
	WindowWrong string
	// Notes are what the user must know about the figures' window (stderr).
	Notes  []string
	Queues []health.QueueStats
	// Pod is nil for --url and --from-file targets.
	Pod *Pod
	// Objects are the objects the controllers reconcile, when they were read (a cluster).
	Objects *objects.View
	// Events are the Warning events that speak of the controllers, when they were read (a
	// cluster): evidence of which objects fail, never a finding of their own.
	Events *events.View
	// Admission is the cluster's admission webhook configurations, when they were read (a
	// cluster with an API server target); the API server's page says how slow each webhook is.
	Admission *apiserver.Admission
	// FlowSchemas are the cluster's API Priority and Fairness FlowSchemas, when they were read
	// (a cluster with an API server target); the API server's page says how long each one's
	// requests wait.
	FlowSchemas *apiserver.FlowControl
	// Workers are the workers of queues whose metrics do not say it (report --workers
	// QUEUE=N, as for kube-controller-manager), by queue name; they override
	// controller_runtime_max_concurrent_reconciles too.
	Workers map[string]float64
	// Goroutines are where the workers wait, from the process's goroutine dump, when one was
	// read; nil otherwise.
	Goroutines *goroutines.Profile
	// Log is what the controller's recent log says (failing objects, throttling waits,
	// panics), when it was read; nil otherwise.
	Log *logs.Log
	// Flagz are the flags the process says it runs with (kube-controller-manager's /flagz),
	// when they were read; nil otherwise. They tell its knobs' values where its pod's
	// arguments do not.
	Flagz *knobs.Flagz

	// capacity is the capacity model computed once (WithCapacity); nil: computed when read.
	capacity *[]QueueCapacity
	// slis are the queue-wait indicators judged once (WithCapacity); nil: judged when read.
	slis *[]QueueSLI
}

// Pod is what the pod behind a target says.
type Pod struct {
	Namespace, Name string
	// ServiceAccount is the pod's ServiceAccount ("" when unknown): whom the API server sees
	// the controller's requests from, unless it uses credentials of its own.
	ServiceAccount string
	// Container is the container that serves the metrics; "" when unknown (then every
	// container counts as it).
	Container string
	// Terminations are the last termination of each container that restarted.
	Terminations []Termination
	// MemoryLimitBytes is the metrics container's memory limit; 0 when it has none.
	MemoryLimitBytes float64
	// CPULimitCores is the metrics container's CPU limit; 0 when it has none.
	CPULimitCores float64
	// Image and Args (its command, then its arguments) are the metrics container's: they tell
	// a well-known controller and the flags it was started with.
	Image string
	Args  []string
	// Env is the metrics container's environment, as knobs.Seen holds it.
	Env map[string]string
}

// Termination is a container's last termination.
type Termination struct {
	Container string
	// Restarts is the container's restart count.
	Restarts int32
	Reason   string
	// Ago is how long ago it ended; 0 when unknown.
	Ago time.Duration
}

// CacheLag is one informer's lag against the API server, as pkg/model/cachesync measures it.
type CacheLag struct {
	Target   string
	Kind     Kind
	Informer string // name/group/version/resource
	// QueuedItems are events waiting before the handlers; LatencyP99 the handlers' p99 (s).
	QueuedItems float64
	LatencyP99  float64
	// LatencyP99AtLeast: the p99 is only known to be LatencyP99 or more.
	LatencyP99AtLeast bool
	// BehindAPIServer is true when the store had not reached, by the second sample, the
	// resource version the API server's watch cache had at the first.
	BehindAPIServer bool
	// VersionsBehind is the API server's resource version minus the store's (NaN if unknown).
	VersionsBehind float64
}

// KindOf guesses the kind of controller a snapshot comes from.
func KindOf(s *health.Snapshot, podLabels map[string]string) Kind {
	switch {
	case podLabels["component"] == "kube-controller-manager":
		return KubeControllerManager
	case podLabels["component"] == "kube-apiserver":
		return KubeAPIServer
	case s == nil:
		return ClientGo
	case len(s.WatchCache) > 0:
		return KubeAPIServer
	case s.SyncsOnly != "":
		return ClientGo // cert-manager's controllers work client-go queues
	case len(s.Controllers) > 0:
		return ControllerRuntime
	}
	return ClientGo
}
