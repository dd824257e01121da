// This file finds where a target serves net/http/pprof (a container port named for it,
// the address in the container's arguments, kube-controller-manager's and the API server's
// secure port, or the port the user names) and fetches its goroutine dump through the same
// transport as its metrics, bounded in size and time; the metrics credentials go only to the
// metrics endpoint itself. Every failure becomes the profile's note: a dump that cannot be had
// never fails the run.

package goroutines
