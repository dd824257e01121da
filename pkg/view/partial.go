package view

// Partial says that the server the series were read from (Thanos Query, Mimir, a
// VictoriaMetrics cluster) answered without some of its stores: the report is not of the
// whole fleet.
type Partial struct {
	// MissingClusters are the clusters the answers lack, where that can be told (empty when
	// it cannot).
	MissingClusters []string `json:"missingClusters"`
	// Warnings are the server's words, bounded and escaped, each once.
	Warnings []string `json:"warnings"`
}
