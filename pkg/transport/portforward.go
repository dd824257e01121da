package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"

	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	streamhttp "k8s.io/streaming/pkg/httpstream"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// PortForward reaches a pod through a port-forward opened for one scrape: an ephemeral local
// port on 127.0.0.1, then HTTP(S) to it with the metrics credentials, and the forward closed
// with the response body. It tries websockets first and falls back to SPDY, as kubectl does
// (KUBECTL_PORT_FORWARD_WEBSOCKETS=false skips websockets, as it does for kubectl).
type PortForward struct {
	Cluster *Cluster
	// Client talks to the forward's local end (TLS settings of the metrics endpoint); Token is
	// the endpoint's bearer token, sent only there.
	Client *http.Client
	Token  string
}

// Get opens the forward, fetches the page, and returns a response whose body closes the forward.
func (p *PortForward) Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error) {
	if t.Kind != target.KindPod {
		return nil, fmt.Errorf("port-forward cannot reach a %s target", t.Kind)
	}
	dialer, err := p.dialer(t)
	if err != nil {
		return nil, err
	}
	stop := make(chan struct{})
	var once sync.Once
	closeForward := func() { once.Do(func() { close(stop) }) }
	ready := make(chan struct{})
	errOut := &lockedBuffer{}
	fw, err := portforward.NewOnAddressesForStreaming(dialer, []string{"127.0.0.1"},
		[]string{fmt.Sprintf("0:%d", t.Port)}, stop, ready, io.Discard, errOut)
	if err != nil {
		return nil, fmt.Errorf("port-forward to pod %s/%s: %w", t.Namespace, t.Name, err)
	}
	done := make(chan error, 1)
	go func() { done <- fw.ForwardPorts() }()
	select {
	case <-ready:
	case err := <-done:
		return nil, fmt.Errorf("port-forward to pod %s/%s: %w", t.Namespace, t.Name, err)
	case <-ctx.Done():
		closeForward()
		return nil, fmt.Errorf("port-forward to pod %s/%s: %w", t.Namespace, t.Name, ctx.Err())
	}
	ports, err := fw.GetPorts()
	if err != nil || len(ports) == 0 {
		closeForward()
		return nil, fmt.Errorf("port-forward to pod %s/%s: no local port: %v", t.Namespace, t.Name, err)
	}
	scheme := "http"
	if t.HTTPS() {
		scheme = "https"
	}
	local := fmt.Sprintf("%s://127.0.0.1:%d/%s", scheme, ports[0].Local, strings.TrimPrefix(t.Path, "/"))
	resp, err := p.get(ctx, local, header)
	if err != nil {
		closeForward()
		if msg := errOut.firstLine(); msg != "" {
			// The forward's own error (e.g. the kubelet refusing the port) says more than the
			// HTTP client's "connection reset".
			return nil, fmt.Errorf("port-forward to pod %s/%s port %d: %s", t.Namespace, t.Name, t.Port, msg)
		}
		if errors.Is(err, io.EOF) {
			// The forward accepted the connection and the pod's side closed it unanswered:
			// usually nothing listens on that port in the pod.
			return nil, fmt.Errorf("through port-forward to pod %s/%s: the connection to port %d was closed without an answer: "+
				"nothing may listen on that port in the pod (check --port and the pod's container ports): %w", t.Namespace, t.Name, t.Port, err)
		}
		return nil, fmt.Errorf("through port-forward to pod %s/%s: %w", t.Namespace, t.Name, err)
	}
	resp.Body = &hookedBody{ReadCloser: resp.Body, onClose: closeForward}
	return resp, nil
}

// get performs the GET on the local end with the endpoint's token.
func (p *PortForward) get(ctx context.Context, rawURL string, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if p.Token != "" {
		req.Header.Set("Authorization", "Bearer "+p.Token)
	}
	return p.Client.Do(req)
}

// dialer builds kubectl's dialer: SPDY over websockets first, plain SPDY as fallback.
func (p *PortForward) dialer(t target.Target) (streamhttp.Dialer, error) {
	u, err := url.Parse(strings.TrimSuffix(p.Cluster.Config.Host, "/"))
	if err != nil {
		return nil, fmt.Errorf("API server address %q: %w", p.Cluster.Config.Host, err)
	}
	u.Path += fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/portforward", t.Namespace, t.Name)
	rt, upgrader, err := spdy.RoundTripperFor(p.Cluster.Config)
	if err != nil {
		return nil, fmt.Errorf("port-forward: %w", err)
	}
	dialer := spdy.NewDialerForStreaming(upgrader, &http.Client{Transport: rt}, http.MethodPost, u)
	if strings.EqualFold(os.Getenv("KUBECTL_PORT_FORWARD_WEBSOCKETS"), "false") {
		return dialer, nil
	}
	tunneling, err := portforward.NewSPDYOverWebsocketDialerForStreaming(u, p.Cluster.Config)
	if err != nil {
		return nil, fmt.Errorf("port-forward: %w", err)
	}
	return portforward.NewFallbackDialerForStreaming(tunneling, dialer, func(err error) bool {
		return streamhttp.IsUpgradeFailure(err) || streamhttp.IsHTTPSProxyError(err)
	}), nil
}

// hookedBody runs onClose after closing the body.
type hookedBody struct {
	io.ReadCloser
	onClose func()
}

func (h *hookedBody) Close() error {
	err := h.ReadCloser.Close()
	h.onClose()
	return err
}

// lockedBuffer collects the port-forwarder's error output, written from its goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 4096 {
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) firstLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	line, _, _ := strings.Cut(strings.TrimSpace(b.buf.String()), "\n")
	return line
}
