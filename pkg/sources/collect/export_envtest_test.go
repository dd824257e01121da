//go:build envtest

package collect

// SeriesSource is seriesSource, for the tests of package collect_test: they make a report of
// a source, and the run layer, which makes it, imports this package.
type SeriesSource = seriesSource
