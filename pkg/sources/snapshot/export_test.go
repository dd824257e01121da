package snapshot

// What the tests of package snapshot_test use of this package's insides. Those tests make a
// report of a recorded or replayed source, and the run layer, which makes it, imports this
// package.
var ReadArchive = readArchive

const (
	InventoryName = inventoryName
	ResultsName   = resultsName
	EventsName    = eventsName
)

// FakeCluster is fakeCluster, a cluster's answers made up.
type FakeCluster = fakeCluster
