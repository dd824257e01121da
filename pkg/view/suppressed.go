package view

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"

// Suppressions are the findings a team has accepted for now (an ignore file entry or a
// workload's ctrldiag.io/ignore annotation): taken out of Findings and the summary, listed
// here with why, so that nothing is hidden.
type Suppressions struct {
	Findings []Suppressed `json:"findings"`
	// Expired are ignore file entries past their expiry date: they no longer suppress.
	Expired []string `json:"expired,omitempty"`
}

// Suppressed is one finding left out of the findings and of --fail-on.
type Suppressed struct {
	findings.Finding
	Reason string `json:"reason"`
	// Source is where the suppression comes from: "FILE:LINE" or "annotation ctrldiag.io/ignore
	// on pod NAMESPACE/NAME".
	Source string `json:"source"`
}
