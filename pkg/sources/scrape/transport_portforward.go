package scrape

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
// with the response body. With Keep, the forward of each pod stays open for the next scrape
// (a live view reads the same pods again and again) until Close; a kept forward that fails is
// closed and opened anew once. It tries websockets first and falls back to SPDY, as kubectl
// does (KUBECTL_PORT_FORWARD_WEBSOCKETS=false skips websockets, as it does for kubectl).
type PortForward struct {
	Cluster *Cluster
	// Client talks to the forward's local end (TLS settings of the metrics endpoint); Token is
	// the endpoint's bearer token, sent only there.
	Client *http.Client
	Token  string
	// Keep keeps each pod's forward open across scrapes.
	Keep bool

	mu   sync.Mutex
	kept map[string]*forward
}

// forward is one open port-forward to a pod's port.
type forward struct {
	local  string // the URL of the local end, without a path
	errOut *lockedBuffer
	close  func()
	ended  chan struct{} // closed when the forward stops
}

func (f *forward) alive() bool {
	select {
	case <-f.ended:
		return false
	default:
		return true
	}
}

// Get fetches the page through a forward: with Keep, the pod's kept one (opened when there is
// none alive); otherwise one opened for this request, closed with the response body.
func (p *PortForward) Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error) {
	if t.Kind != target.KindPod {
		return nil, fmt.Errorf("port-forward cannot reach a %s target", t.Kind)
	}
	if !p.Keep {
		fw, err := p.open(ctx, t)
		if err != nil {
			return nil, err
		}
		resp, err := p.fetch(ctx, fw, t, header)
		if err != nil {
			return nil, err
		}
		resp.Body = &hookedBody{ReadCloser: resp.Body, onClose: fw.close}
		return resp, nil
	}
	key := t.ID()
	p.mu.Lock()
	fw := p.kept[key]
	p.mu.Unlock()
	reused := fw != nil && fw.alive()
	if !reused {
		var err error
		if fw, err = p.open(ctx, t); err != nil {
			return nil, err
		}
		p.keep(key, fw)
	}
	resp, err := p.fetch(ctx, fw, t, header)
	if err != nil {
		p.drop(key, fw)
		if reused && ctx.Err() == nil {
			// The kept forward may have died with the pod's side (a restart): one fresh try.
			if fw, err = p.open(ctx, t); err != nil {
				return nil, err
			}
			p.keep(key, fw)
			if resp, err = p.fetch(ctx, fw, t, header); err != nil {
				p.drop(key, fw)
			}
		}
	}
	return resp, err
}

func (p *PortForward) keep(key string, fw *forward) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.kept == nil {
		p.kept = map[string]*forward{}
	}
	if old := p.kept[key]; old != nil && old != fw {
		old.close()
	}
	p.kept[key] = fw
}

func (p *PortForward) drop(key string, fw *forward) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.kept[key] == fw {
		delete(p.kept, key)
	}
}

// Retain closes the kept forwards of the targets whose ID is not in ids (pods gone from a new
// discovery) and keeps the others open, to be reused.
func (p *PortForward) Retain(ids map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, fw := range p.kept {
		if !ids[k] {
			fw.close()
			delete(p.kept, k)
		}
	}
}

// Close closes the kept forwards.
func (p *PortForward) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, fw := range p.kept {
		fw.close()
		delete(p.kept, k)
	}
}

// open opens a forward to the target's port and waits until it is ready.
func (p *PortForward) open(ctx context.Context, t target.Target) (*forward, error) {
	dialer, err := p.dialer(t)
	if err != nil {
		return nil, err
	}
	ready := make(chan struct{})
	errOut := &lockedBuffer{}
	// The forward lives until it is closed, not only the request; its errors (the kubelet
	// refusing the port, nothing listening) go to errOut for the target's error instead of
	// client-go's global error log on stderr.
	fwCtx, closeForward := context.WithCancel(klog.NewContext(context.Background(), logr.New(&errorSink{out: errOut})))
	fw, err := portforward.NewOnAddressesForStreamingWithContext(fwCtx, dialer, []string{"127.0.0.1"},
		[]string{fmt.Sprintf("0:%d", t.Port)}, ready, io.Discard, errOut)
	if err != nil {
		closeForward()
		return nil, fmt.Errorf("port-forward to pod %s/%s: %w", t.Namespace, t.Name, err)
	}
	done := make(chan error, 1)
	ended := make(chan struct{})
	go func() {
		err := fw.ForwardPorts()
		close(ended)
		done <- err
	}()
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
	return &forward{local: fmt.Sprintf("%s://127.0.0.1:%d", scheme, ports[0].Local),
		errOut: errOut, close: closeForward, ended: ended}, nil
}

// fetch GETs the page through fw; on an error it closes fw and says what the pod's side said.
func (p *PortForward) fetch(ctx context.Context, fw *forward, t target.Target, header http.Header) (*http.Response, error) {
	// The path is the request's: a kept forward to a port serves every path of it.
	resp, err := p.get(ctx, fw.local+"/"+strings.TrimPrefix(t.Path, "/"), header)
	if err == nil {
		return resp, nil
	}
	// The pod's side reports its own error on a second stream, a moment after the data
	// stream ends: give it that moment, it says more than "EOF".
	for i := 0; i < 10 && fw.errOut.remote() == "" && ctx.Err() == nil && errors.Is(err, io.EOF); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	fw.close()
	if msg := fw.errOut.remote(); msg != "" {
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
