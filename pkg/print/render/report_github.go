package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// ReportGitHub writes the report as GitHub Actions workflow commands: an ::error per critical
// finding and a ::warning per warning (info is left out), titled "CODE slug", then the verdict
// and the suppressions as plain lines, and each expired ignore entry as a ::notice.
func ReportGitHub(w io.Writer, r view.Report) error {
	r = printable.Value(r)
	ew := &errWriter{w: w}
	for _, f := range r.Findings {
		var cmd string
		switch f.Severity {
		case findings.Critical:
			cmd = "error"
		case findings.Warning:
			cmd = "warning"
		default:
			continue
		}
		subject := f.Target
		if f.Queue != "" {
			subject += " (queue " + f.Queue + ")"
		}
		msg := fmt.Sprintf("%s: %s. %s", subject, f.Title, f.Summary)
		for _, e := range f.Evidence {
			msg += "\n- " + evidence(e)
		}
		msg += "\nfix: " + f.Recommendation
		ew.printf("::%s title=%s::%s\n", cmd, githubProperty(f.Code+" "+f.Check), githubData(msg))
	}
	if s := r.Suppressions; s != nil {
		for _, e := range s.Expired {
			ew.printf("::notice title=%s::%s\n", githubProperty("ctrldiag ignore entry expired"), githubData(e))
		}
		if len(s.Findings) > 0 {
			ew.printf("%s\n", strings.ReplaceAll(suppressedLine(*s), "\n", " "))
		}
	}
	if l := partialLine(r); l != "" {
		ew.printf("::warning title=%s::%s\n", githubProperty("ctrldiag partial answer"), githubData(l))
	}
	ew.printf("kubectl ctrldiag report: %s (%s)\n", r.Summary.Verdict, targetsRead(r.Summary))
	return ew.err
}

// githubData escapes a workflow command's message the way the Actions runner reads it.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a workflow command's property value (title=...), where : and , end
// the value too.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
