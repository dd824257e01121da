package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
)

// A snapshot of a working endpoint whose report.json was edited to the healthy report of a
// snapshot standing still: report --from-snapshot --fail-on warning exits 3, and so does diff
// --fail-on new-warning against the still one, warning once that the stored report was not
// used; before, diff read the stored report, said healthy and exited 0.
func TestDiffAgreesWithReportFromSnapshotOnAnEditedReport(t *testing.T) {
	dir := t.TempDir()
	still, working, lying := filepath.Join(dir, "still.tar.gz"), filepath.Join(dir, "working.tar.gz"), filepath.Join(dir, "lying.tar.gz")
	stillThenWorking(t, still, working)
	s, err := snapshot.Load(context.Background(), working, snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	healthy, err := snapshot.Load(context.Background(), still, snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	s.Report = healthy.Report
	if err := s.Save(lying); err != nil {
		t.Fatal(err)
	}

	if _, errOut, code := runReportCmd(t, "--from-snapshot", lying, "--fail-on", "warning", "-o", "json"); code != cli.ExitFindings {
		t.Fatalf("report --from-snapshot --fail-on warning: exit %d, want %d\n%s", code, cli.ExitFindings, errOut)
	}
	text, errOut, code := runDiff(t, still, lying, "--fail-on", "new-warning")
	if code != cli.ExitFindings || !strings.Contains(text, "FINDINGS APPEARED") {
		t.Errorf("diff still lying --fail-on new-warning: exit %d, want %d as report --from-snapshot\n%s%s", code, cli.ExitFindings, text, errOut)
	}
	want := "warning: " + lying + ": the report the snapshot stores (report.json) disagrees with its pages and was not used"
	if strings.Count(errOut, "warning: ") != 1 || !strings.HasPrefix(errOut, want) {
		t.Errorf("diff stderr, want one line %q...:\n%s", want, errOut)
	}

	// Untouched snapshots say nothing on stderr.
	if _, errOut, code := runDiff(t, still, working, "--fail-on", "new-warning"); code != cli.ExitFindings || strings.Contains(errOut, "warning") {
		t.Errorf("diff still working: exit %d, stderr %q", code, errOut)
	}
}
