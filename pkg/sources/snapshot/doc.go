// Package snapshot is the file `kubectl ctrldiag snapshot` writes and `--from-snapshot` and
// `diff` read: a gzip-compressed tar archive holding, besides a manifest with a schema
// version, the raw metrics pages of both samples of every target as they were read, the
// targets and how each was reached, the controller pods (stripped of anything
// secret-bearing), what the cluster answered (generation lag, the objects view, Lease
// holders, metrics.k8s.io usage), recent Warning events of the pods, versions and times, and
// the report the run printed.
//
// Record wraps a live source and keeps what it gives; Replay is a source that gives it back,
// so that the report made offline from a snapshot is the report made live. Reading a
// snapshot never extracts anything to disk and is bounded in memory: every member, the whole
// archive and the number of members have limits, counted in the bytes actually read, and a
// hostile archive (links, sparse files, paths that leave the archive, a gzip bomb, a
// truncated file, a newer schema) is refused with one error that says why.
package snapshot
