package goroutines

import "strings"

// Cause is what a group of workers waits on, told from its frames and state.
type Cause string

const (
	CauseHTTP        Cause = "http"         // an HTTP request
	CauseNetwork     Cause = "network"      // another network read, write or dial
	CauseRateLimiter Cause = "rate-limiter" // the Kubernetes client's own rate limiter
	CauseLock        Cause = "lock"         // a mutex
	CauseChannel     Cause = "channel"      // a channel or select
	CauseSleep       Cause = "sleep"        // time.Sleep
	CauseUnknown     Cause = ""
)

// CauseOf tells what the group waits on. The client's rate limiter is looked for in the whole
// stack (the controller calls the client, the client waits on its limiter); the rest in the
// call the controller's code made and the goroutine's state.
func (g Group) CauseOf() Cause {
	for _, f := range g.Frames {
		switch {
		case strings.Contains(f.Func, "k8s.io/client-go/util/flowcontrol."),
			strings.Contains(f.Func, "k8s.io/client-go/rest.(*Request).tryThrottle"),
			strings.HasPrefix(f.Func, "golang.org/x/time/rate.(*Limiter).Wait"):
			return CauseRateLimiter
		}
	}
	w := g.Wait.Func
	switch {
	case strings.HasPrefix(w, "net/http."):
		return CauseHTTP
	case strings.HasPrefix(w, "net.") || strings.HasPrefix(w, "crypto/tls."):
		return CauseNetwork
	case strings.HasPrefix(w, "sync.(*Mutex)") || strings.HasPrefix(w, "sync.(*RWMutex)") ||
		strings.HasPrefix(g.State, "sync.Mutex") || strings.HasPrefix(g.State, "sync.RWMutex"):
		return CauseLock
	case strings.HasPrefix(w, "time.Sleep") || g.State == "sleep":
		return CauseSleep
	case strings.HasPrefix(w, "runtime.chan") || strings.HasPrefix(w, "runtime.selectgo") ||
		g.State == "chan receive" || g.State == "chan send" || g.State == "select" || g.State == "chan receive (nil chan)" || g.State == "chan send (nil chan)":
		return CauseChannel
	}
	return CauseUnknown
}

// Advice is what to do about workers that wait on c; "" when the frames do not tell.
func (c Cause) Advice() string {
	switch c {
	case CauseHTTP:
		return "The workers wait in an HTTP call that has no deadline: give the client a Timeout, or the request a context with a deadline (context.WithTimeout from the reconcile's context)."
	case CauseNetwork:
		return "The workers wait on the network without a deadline: set a dial and read deadline, or pass a context with a deadline."
	case CauseRateLimiter:
		return "The workers wait in the Kubernetes client's own rate limiter: raise QPS and Burst of the client's REST config (or the controller's --kube-api-qps/--kube-api-burst), or make fewer requests (read from the cache)."
	case CauseLock:
		return "The workers wait for a lock held elsewhere (lock contention): find its holder in the dump, keep slow calls out of the critical section."
	case CauseChannel:
		return "The workers wait on a channel that nobody sends on or receives from: select on the context's Done() too, so a reconcile can give up."
	case CauseSleep:
		return "The workers sleep inside the reconcile: return with RequeueAfter instead of sleeping."
	}
	return ""
}
