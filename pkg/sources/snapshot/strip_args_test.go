package snapshot

import (
	"strings"
	"testing"
)

// The values of secret-named flags are masked in both forms, but a boolean switch whose name
// only says "credentials" keeps its value: kube-controller-manager's
// --use-service-account-credentials decides which FlowSchema classifies its controllers.
func TestStripArgsKeepsBooleanSwitches(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"--use-service-account-credentials=true --controllers=*", "--use-service-account-credentials=true --controllers=*"},
		{"--use-service-account-credentials=false", "--use-service-account-credentials=false"},
		{"--use-service-account-credentials --leader-elect", "--use-service-account-credentials --leader-elect"},
		{"--client-credentials=s3cr3t --token abc", "--client-credentials=[REDACTED] --token [REDACTED]"},
		{"--api-key=1 --password 0 --secret=TRUE", "--api-key=[REDACTED] --password [REDACTED] --secret=TRUE"},
	} {
		if got := strings.Join(stripArgs(strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("stripArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
