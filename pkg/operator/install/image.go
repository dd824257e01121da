package install

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/version"

// DefaultImage is the image of this build's version (latest for unversioned builds): the one
// the Deployment runs unless told otherwise.
func DefaultImage() string {
	v := version.Get().Version
	if v == "unknown" {
		v = "latest"
	}
	return "ghcr.io/ctrldiag/kubectl-ctrldiag:" + v
}
