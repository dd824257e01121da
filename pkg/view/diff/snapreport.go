// This file checks the report a snapshot stores (report.json) against the report its
// pages make (Agrees): `report --from-snapshot` and `diff` make a snapshot's report from its
// pages, through the one run layer (pkg/run, pkg/run's Snapshot), and never trust the
// stored one instead.

package diff
