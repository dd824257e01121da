package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// SchemaVersion is the version of the snapshot format this build writes and the newest it
// reads. A change that an older reader would misread raises it.
const SchemaVersion = 1

// Kind names the file in its manifest.
const Kind = "CtrldiagSnapshot"

// ManifestName is the first member of every snapshot.
const ManifestName = "manifest.json"

// Manifest says what the snapshot is: its schema, when and by what it was taken, where.
type Manifest struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schemaVersion"`
	// Taken is when the report of the run was made (its generatedAt); the samples have their
	// own times in results.json.
	Taken time.Time `json:"taken"`
	// Plugin is the build of kubectl-ctrldiag that took it; APIServer the cluster's version,
	// when a cluster was read and said it.
	Plugin    version.Info `json:"plugin"`
	APIServer string       `json:"apiServer,omitempty"`
	// Scope is where targets were looked for.
	Scope Scope `json:"scope"`
	// Interval is the time asked for between the two samples.
	Interval string `json:"interval"`
	// Members lists the other members, for a reader that only looks at the manifest.
	Members []string `json:"members"`
}

// Scope is where targets were looked for: a cluster (a namespace, "" for all, and a label
// selector), or only --url and --from-file.
type Scope struct {
	Cluster   bool   `json:"cluster"`
	Namespace string `json:"namespace,omitempty"`
	Selector  string `json:"selector,omitempty"`
}

// decodeManifest reads and checks the manifest.
func decodeManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("not a snapshot: %s is not valid: %v", ManifestName, err)
	}
	switch {
	case m.Kind != Kind:
		return m, fmt.Errorf("not a snapshot: %s has kind %q, want %q", ManifestName, m.Kind, Kind)
	case m.SchemaVersion > SchemaVersion:
		return m, fmt.Errorf("the snapshot has schema version %d, newer than the %d this kubectl-ctrldiag reads (it was taken by %s): upgrade kubectl-ctrldiag",
			m.SchemaVersion, SchemaVersion, m.Plugin.Version)
	case m.SchemaVersion < 1:
		return m, errors.New("not a snapshot: the manifest has no schema version")
	}
	return m, nil
}
