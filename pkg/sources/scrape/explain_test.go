package scrape

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// A read that fails because the page's time ran out is said to be the timeout, whatever the
// connection closed under it reported (kubectl's port-forward: "use of closed network
// connection"); the same failure with time left is not.
func TestReadAfterTheTimeoutIsTheTimeout(t *testing.T) {
	closed := fmt.Errorf("read tcp 127.0.0.1:42778->127.0.0.1:40659: %w", net.ErrClosed)
	late, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-late.Done()
	if got := explainRead(late, closed).Error(); !strings.Contains(got, "no complete answer within the timeout (--timeout)") {
		t.Errorf("after the timeout: %q", got)
	}
	if got := explainRead(context.Background(), closed).Error(); strings.Contains(got, "timeout") || !strings.Contains(got, "use of closed") {
		t.Errorf("with time left: %q", got)
	}
}
