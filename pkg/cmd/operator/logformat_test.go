package operator

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
)

// Every --log-format the operator writes is one report reads: a reconcile's error names its
// object, controller and error. (klog writes to standard error itself: pkg/facts/logs tests its
// text.)
func TestEveryLogFormatIsRead(t *testing.T) {
	for _, format := range logFormatNames() {
		if format == "klog" {
			continue
		}
		var b bytes.Buffer
		log, err := newLogger(format, &b)
		if err != nil {
			t.Fatal(err)
		}
		log.WithValues("controller", "workload", "namespace", "demo", "name", "w-1").
			Error(errors.New("injected failure"), "Reconciler error")
		l := logs.Parse(strings.NewReader(b.String()), logs.Options{})
		if len(l.Failures) != 1 || l.Failures[0].Object != "demo/w-1" || l.Failures[0].Controller != "workload" ||
			l.Failures[0].Error != "injected failure" || l.Failures[0].Last.IsZero() {
			t.Errorf("--log-format %s: %+v from:\n%s", format, l.Failures, b.String())
		}
	}
	if _, err := newLogger("xml", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "zap-console") {
		t.Errorf("an unknown format: %v", err)
	}
}
