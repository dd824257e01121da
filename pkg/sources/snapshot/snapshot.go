package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Member names besides the manifest and the pages (pages/NNN-S.prom).
const (
	inventoryName = "inventory.json"
	resultsName   = "results.json"
	clusterName   = "cluster.json"
	eventsName    = "events.json"
	// ReportName is the report the run printed, as `report -o json` writes it.
	ReportName = "report.json"
)

// Snapshot is everything one run read, and the report it made.
type Snapshot struct {
	Manifest  Manifest
	Inventory Inventory
	Results   []Result
	// Pages are the raw pages by member name.
	Pages map[string][]byte
	// Cluster is what the cluster answered; nil when no cluster was read.
	Cluster *ClusterAnswers
	Events  []Event
	// Report is the report the run made, as JSON; nil when it made none.
	Report []byte
}

// Inventory is what the source's Open found.
type Inventory struct {
	Targets    []target.Target    `json:"targets"`
	Unreadable []Result           `json:"unreadable,omitempty"`
	Skipped    []discover.Skipped `json:"skipped,omitempty"`
	// Pods are the controller pods by "namespace/name", stripped of env values, secret-bearing
	// annotations and arguments (see Strip).
	Pods     map[string]*corev1.Pod `json:"pods,omitempty"`
	Warnings []string               `json:"warnings,omitempty"`
}

// Result is one target as it was read.
type Result struct {
	// Target is the target as it was reached in the end (Via says how).
	Target target.Target `json:"target"`
	// Pod is the "namespace/name" of the pod behind the target, if any.
	Pod     string   `json:"pod,omitempty"`
	Samples []Sample `json:"samples,omitempty"`
	// Window is the time between the two samples as the run measured it.
	Window time.Duration `json:"windowNanoseconds"`
	// ResetsCounted is the source's word that the first sample is exact about counter resets
	// within the window (see source.Result).
	ResetsCounted bool     `json:"resetsCounted,omitempty"`
	Error         string   `json:"error,omitempty"`
	Notes         []string `json:"notes,omitempty"`
	// Goroutines are the groups of the target's goroutine dump, when one was read (absent
	// from snapshots made before dumps were read, which load as without one).
	Goroutines *goroutines.Profile `json:"goroutines,omitempty"`
	// Log is what was extracted of the target's log, when it was read (absent from snapshots
	// made before logs were read, which load as without one). Never a line of it.
	Log *logs.Log `json:"log,omitempty"`
	// Flagz are the flags of its knobs the process said it runs with, when its /flagz was
	// read (absent from older snapshots, which load as without them).
	Flagz *knobs.Flagz `json:"flagz,omitempty"`
	// WatchEnv is, by container, what the WATCH_NAMESPACE(S) of the pod's containers that take
	// them from elsewhere resolved to when it was read: the decision only (the values of these
	// two variables, or that they could not be had, and why), never anything else of a
	// ConfigMap (absent from older snapshots, which load as unresolved).
	WatchEnv map[string]*knobs.WatchEnv `json:"watchEnv,omitempty"`
}

// Sample is one page of a target: when it was read and the member that holds it.
type Sample struct {
	Time time.Time `json:"time"`
	Page string    `json:"page"`
}

// ClusterAnswers are what the cluster answered the run, in the order asked.
type ClusterAnswers struct {
	// Generations are the answers to each generation-lag check (report asks before and
	// after the reading).
	Generations [][]cachesync.GenerationReport `json:"generations,omitempty"`
	Objects     *objects.View                  `json:"objects,omitempty"`
	// Usage is metrics.k8s.io by "namespace/name"; UsageNote why it is missing.
	Usage     map[string]source.PodUsage `json:"usage,omitempty"`
	UsageNote string                     `json:"usageNote,omitempty"`
	// Leases are the holders of the Leases of the pods' namespaces.
	Leases []model.Holder `json:"leases,omitempty"`
	// WorkloadAnnotations are the values of the annotations read on workload objects, by key
	// and "namespace/kind/name"; WorkloadWarnings what could not be read.
	WorkloadAnnotations map[string]map[string]string `json:"workloadAnnotations,omitempty"`
	WorkloadWarnings    []string                     `json:"workloadWarnings,omitempty"`
	// Admission is the admission webhook configurations, read when an API server's page was.
	Admission *apiserver.Admission `json:"admission,omitempty"`
	// Ownership is what the owner-reference probe found: the kinds controllers own, asked
	// when a slow or rejecting webhook was (older snapshots hold none).
	Ownership *apiserver.Ownership `json:"ownership,omitempty"`
	// FlowSchemas are the API Priority and Fairness FlowSchemas, read when an API server's page was.
	FlowSchemas *apiserver.FlowControl `json:"flowSchemas,omitempty"`
	// WarningEvents are the Warning events that speak of the controllers, grouped by reason
	// and object (older snapshots hold none).
	WarningEvents *events.View `json:"warningEvents,omitempty"`
}

// Event is a recent Warning event of a controller pod.
type Event struct {
	Namespace string    `json:"namespace"`
	Pod       string    `json:"pod"`
	Reason    string    `json:"reason"`
	Message   string    `json:"message"`
	Count     int64     `json:"count"`
	LastSeen  time.Time `json:"lastSeen"`
}

// pageName is the member of sample s of result i.
func pageName(i, s int) string { return fmt.Sprintf("pages/%03d-%d.prom", i, s) }

// members encodes the snapshot, manifest first. Every member passes through redact, so a
// credential the run knew cannot be in the file even where it was not expected.
func (s *Snapshot) members() ([]Member, error) {
	var out []Member
	add := func(name string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, Member{Name: name, Data: append(b, '\n')})
		return nil
	}
	if err := add(inventoryName, s.Inventory); err != nil {
		return nil, err
	}
	if err := add(resultsName, s.Results); err != nil {
		return nil, err
	}
	if s.Cluster != nil {
		if err := add(clusterName, s.Cluster); err != nil {
			return nil, err
		}
	}
	if err := add(eventsName, s.Events); err != nil {
		return nil, err
	}
	if s.Report != nil {
		out = append(out, Member{Name: ReportName, Data: s.Report})
	}
	for i, r := range s.Results {
		for j, smp := range r.Samples {
			if smp.Page != pageName(i, j) {
				return nil, fmt.Errorf("result %d sample %d: page %q, want %q", i, j, smp.Page, pageName(i, j))
			}
			out = append(out, Member{Name: smp.Page, Data: s.Pages[smp.Page]})
		}
	}
	m := s.Manifest
	m.Kind, m.SchemaVersion, m.Members = Kind, SchemaVersion, nil
	for _, mb := range out {
		m.Members = append(m.Members, mb.Name)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	out = append([]Member{{Name: ManifestName, Data: append(b, '\n')}}, out...)
	for i := range out {
		out[i].Data = []byte(redact.String(string(out[i].Data)))
	}
	return out, nil
}

// Write writes the snapshot as a gzip-compressed tar archive.
func (s *Snapshot) Write(w io.Writer) error {
	members, err := s.members()
	if err != nil {
		return err
	}
	return writeArchive(w, members, s.Manifest.Taken)
}

// Save writes the snapshot to path, readable by its owner only: to a new file or over a
// regular file, through a temporary file in the same directory so that a failed run leaves
// no half-written snapshot. Anything else at path (a link, a device, a FIFO) is refused
// with a localfile.NotRegularError.
func (s *Snapshot) Save(path string) error {
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		return err
	}
	return localfile.Write(path, 0o600, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// Load reads the snapshot at path within lim. A FIFO or a pipe is opened and read within
// ctx; a directory or a device is refused.
func Load(ctx context.Context, path string, lim Limits) (*Snapshot, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && st.Mode()&os.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s: not a snapshot: not a regular file (it is %s)", path, localfile.Describe(st.Mode()))
	}
	f, err := localfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the snapshot: %w", err)
	}
	defer f.Close()
	s, err := Read(f, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Read reads a snapshot within lim.
func Read(r io.Reader, lim Limits) (*Snapshot, error) {
	members, err := readArchive(r, lim)
	if err != nil {
		return nil, err
	}
	if members[0].Name != ManifestName {
		return nil, fmt.Errorf("not a snapshot: the first member is %q, not %s", members[0].Name, ManifestName)
	}
	s := &Snapshot{Pages: map[string][]byte{}}
	if s.Manifest, err = decodeManifest(members[0].Data); err != nil {
		return nil, err
	}
	byName := map[string][]byte{}
	for _, m := range members[1:] {
		byName[m.Name] = m.Data
	}
	decode := func(name string, v any, required bool) error {
		b, ok := byName[name]
		if !ok {
			if required {
				return fmt.Errorf("the snapshot is incomplete: it has no %s", name)
			}
			return nil
		}
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("the snapshot is corrupt: %s: %v", name, err)
		}
		return nil
	}
	if err := decode(inventoryName, &s.Inventory, true); err != nil {
		return nil, err
	}
	if err := decode(resultsName, &s.Results, true); err != nil {
		return nil, err
	}
	if _, ok := byName[clusterName]; ok {
		s.Cluster = &ClusterAnswers{}
		if err := decode(clusterName, s.Cluster, true); err != nil {
			return nil, err
		}
	}
	if err := decode(eventsName, &s.Events, false); err != nil {
		return nil, err
	}
	s.Report = byName[ReportName]
	for i, r := range s.Results {
		for _, smp := range r.Samples {
			b, ok := byName[smp.Page]
			if !ok {
				return nil, fmt.Errorf("the snapshot is incomplete: result %d (%s) names page %q, which it does not hold", i, r.Target.ID(), smp.Page)
			}
			s.Pages[smp.Page] = b
		}
	}
	return s, nil
}
