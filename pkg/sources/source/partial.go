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
	// ReplicatedClusters are clusters a store of which did not answer while a replica of it
	// did (an HA pair with one replica down): their series were read whole (sorted).
	ReplicatedClusters []string
	// Untold is set when a partial answer did not say which stores it lacked: series of any
	// cluster may be missing.
	Untold bool
}

// Whole reports whether, although the server answered partially, every cluster's series were
// read: the stores that did not answer are known, and each had a replica that did.
func (p *Partial) Whole() bool {
	return p == nil || len(p.MissingClusters) == 0 && !p.Untold && len(p.ReplicatedClusters) > 0
}
