package scrape

import (
	"errors"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

func TestProxyPath(t *testing.T) {
	for _, tc := range []struct {
		t    target.Target
		want string
	}{
		{target.Target{Kind: target.KindPod, Namespace: "ops", Name: "op-1", Port: 8080, Scheme: "http", Path: "/metrics"},
			"/api/v1/namespaces/ops/pods/op-1:8080/proxy/metrics"},
		{target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257, Scheme: "https", Path: "metrics"},
			"/api/v1/namespaces/kube-system/pods/https:kcm:10257/proxy/metrics"},
	} {
		if got := ProxyPath(tc.t); got != tc.want {
			t.Errorf("ProxyPath(%+v) = %s, want %s", tc.t, got, tc.want)
		}
	}
}

func TestChoose(t *testing.T) {
	pod := target.Target{Kind: target.KindPod, PodIP: "198.18.1.5"}
	for _, tc := range []struct {
		name      string
		t         target.Target
		want      target.Via
		withToken bool
		got       target.Via
		reason    string
	}{
		{"auto picks the proxy", pod, target.ViaAuto, false, target.ViaProxy, "pods/proxy"},
		{"a token needs port-forward", pod, target.ViaAuto, true, target.ViaPortForward, "drops credentials"},
		{"loopback pod IP", target.Target{Kind: target.KindPod, PodIP: "127.0.0.1"}, target.ViaAuto, false, target.ViaPortForward, "refuses to proxy"},
		{"no pod IP", target.Target{Kind: target.KindPod}, target.ViaAuto, false, target.ViaPortForward, "no IP"},
		{"forced", pod, target.ViaPortForward, false, target.ViaPortForward, "--via port-forward"},
		{"apiserver", target.Target{Kind: target.KindAPIServer}, target.ViaPortForward, true, target.ViaDirect, "kubeconfig"},
	} {
		got, reason := Choose(tc.t, tc.want, tc.withToken)
		if got != tc.got || !strings.Contains(reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.name, got, reason, tc.got, tc.reason)
		}
	}
}

// The forwarder's errors are collected, and the pod side's error is told apart from the
// forwarder's local ones.
func TestForwardErrorsCollected(t *testing.T) {
	b := &lockedBuffer{}
	sink := &errorSink{out: b}
	sink.Error(errors.New("writeto tcp4: connection reset by peer"), "Error copying from local connection to remote stream")
	if got := b.remote(); got != "" {
		t.Errorf("a local copy error is not the pod's: %q", got)
	}
	sink.Error(errors.New("failed to connect to localhost:8082: connection refused"), remoteErrorPrefix)
	if got := b.remote(); got != "failed to connect to localhost:8082: connection refused" {
		t.Errorf("remote() = %q", got)
	}
}

// Retain closes the kept forwards of the IDs not retained and leaves the others open and kept.
func TestRetainClosesOnlyTheForwardsOfGonePods(t *testing.T) {
	closed := map[string]bool{}
	fw := func(id string) *forward {
		return &forward{close: func() { closed[id] = true }, ended: make(chan struct{})}
	}
	p := &PortForward{Keep: true}
	old, kept := fw("ops/op-old:8080"), fw("ops/other:8080")
	p.keep("ops/op-old:8080", old)
	p.keep("ops/other:8080", kept)
	p.Retain(map[string]bool{"ops/other:8080": true, "ops/op-new:8080": true})
	if !closed["ops/op-old:8080"] || closed["ops/other:8080"] {
		t.Errorf("closed %v: only the gone pod's forward is closed", closed)
	}
	if len(p.kept) != 1 || p.kept["ops/other:8080"] != kept {
		t.Errorf("kept %v: the present pod's forward stays kept, to be reused", p.kept)
	}
}
