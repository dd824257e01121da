package source

// Partial says that the server a source reads (Thanos Query, Mimir, a VictoriaMetrics cluster)
// answered without some of its stores: what is read is not the whole of what was asked.
type Partial struct {
	// Warnings are the server's words about the stores that did not answer, bounded and
	// escaped, each once.
	Warnings []string
	// MissingClusters are the clusters whose series the partial answers lack, where that can
	// be told (sorted; "" is not one).
	MissingClusters []string
}
