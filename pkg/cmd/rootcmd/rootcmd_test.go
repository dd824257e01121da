package rootcmd

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"
)

// klog writes once, to the command's stderr, with bearer tokens masked, at every severity.
func TestKlogGoesThroughRedaction(t *testing.T) {
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	New(Spec{Use: "x"}, streams)
	klog.Info("request: Authorization: Bearer info-secret-token")
	klog.ErrorS(nil, "failed", "data", "Bearer error-secret-token")
	klog.Flush()
	got := errOut.String()
	if strings.Contains(got, "secret-token") || strings.Count(got, "[REDACTED]") != 2 {
		t.Fatalf("klog output is not masked, or not written once:\n%s", got)
	}
}
