package view

// Partial says that the server the series were read from (Thanos Query, Mimir, a
// VictoriaMetrics cluster) answered without some of its stores: the report is not of the
// whole fleet.
type Partial struct {
	// MissingClusters are the clusters the answers lack, where that can be told (empty when
	// it cannot).
	MissingClusters []string `json:"missingClusters"`
	// ReplicatedClusters are clusters a store of which did not answer while a replica of it
	// did: their series were read whole.
	ReplicatedClusters []string `json:"replicatedClusters,omitempty"`
	// Whole is set when every cluster's series were read all the same: the stores that did
	// not answer are known and each had a replica that did. A whole answer does not fail
	// --fail-on.
	Whole bool `json:"whole"`
	// Warnings are the server's words, bounded and escaped, each once.
	Warnings []string `json:"warnings"`
}
