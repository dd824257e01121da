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
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

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
	ready := make(chan struct{})
	errOut := &lockedBuffer{}
	// The forward lives until the body is closed, not only the request; its errors (the
	// kubelet refusing the port, nothing listening) go to errOut for the target's error
	// instead of client-go's global error log on stderr.
	fwCtx, closeForward := context.WithCancel(klog.NewContext(context.Background(), logr.New(&errorSink{out: errOut})))
	fw, err := portforward.NewOnAddressesForStreamingWithContext(fwCtx, dialer, []string{"127.0.0.1"},
		[]string{fmt.Sprintf("0:%d", t.Port)}, ready, io.Discard, errOut)
	if err != nil {
		closeForward()
		return nil, fmt.Errorf("port-forward to pod %s/%s: %w", t.Namespace, t.Name, err)
	}
	done := make(chan error, 1)
	go func() { done <- fw.ForwardPorts() }()
	select {
	case <-ready:
	case err := <-done:
		closeForward()
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
		// The pod's side reports its own error on a second stream, a moment after the data
		// stream ends: give it that moment, it says more than "EOF".
		for i := 0; i < 10 && errOut.remote() == "" && ctx.Err() == nil && errors.Is(err, io.EOF); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		closeForward()
		if msg := errOut.remote(); msg != "" {
			return nil, fmt.Errorf("port-forward to pod %s/%s port %d: the forward failed in the pod: %s", t.Namespace, t.Name, t.Port, msg)
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

// remote returns the first error the pod's side of the forward reported, without the
// forwarder's prefix; the forwarder's other errors (local copies failing once the client has
// given up) are not the cause.
func (b *lockedBuffer) remote() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, line := range strings.Split(b.buf.String(), "\n") {
		if msg, ok := strings.CutPrefix(line, remoteErrorPrefix+": "); ok {
			return msg
		}
	}
	return ""
}

// remoteErrorPrefix is how client-go's forwarder logs the error the pod's side sent.
const remoteErrorPrefix = "An error occurred forwarding"

// errorSink is a logr sink that writes the port-forwarder's errors to out and drops the rest.
type errorSink struct{ out io.Writer }

func (s *errorSink) Init(logr.RuntimeInfo)                 {}
func (s *errorSink) Enabled(int) bool                      { return false }
func (s *errorSink) Info(int, string, ...any)              {}
func (s *errorSink) WithValues(...any) logr.LogSink        { return s }
func (s *errorSink) WithName(string) logr.LogSink          { return s }
func (s *errorSink) Error(err error, msg string, _ ...any) { fmt.Fprintf(s.out, "%s: %v\n", msg, err) }
