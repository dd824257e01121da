// Package dualserver runs, for tests, one loopback port that answers both HTTPS and plain
// HTTP with the same handler: a redirect from https:// to http:// on the same host and port
// can then be followed for real, and the handler sees what arrived in plain text (r.TLS is
// nil for those requests).
package dualserver

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Start serves h on 127.0.0.1 over both HTTPS (the certificate of httptest) and HTTP until the
// test ends. It returns the https:// base URL and a client that trusts the certificate.
func Start(t *testing.T, h http.Handler) (string, *http.Client) {
	t.Helper()
	// httptest's TLS server provides the certificate and a client trusting it.
	ref := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(ref.Close)
	cfg := ref.TLS.Clone()
	cfg.NextProtos = []string{"http/1.1"} // http.Server.Serve speaks HTTP/2 only when set up for it
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(&sniffing{Listener: ln, tls: cfg}) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "https://" + ln.Addr().String(), ref.Client()
}

// sniffing hands out TLS connections for those that start with a TLS handshake record, plain
// ones for the others.
type sniffing struct {
	net.Listener
	tls *tls.Config
}

func (l *sniffing) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(c)
	first, err := br.Peek(1)
	pc := &peeked{Conn: c, r: br}
	if err == nil && first[0] == 0x16 { // a TLS handshake record
		return tls.Server(pc, l.tls), nil
	}
	return pc, nil
}

// peeked is a connection whose first bytes were read ahead into r.
type peeked struct {
	net.Conn
	r *bufio.Reader
}

func (c *peeked) Read(p []byte) (int, error) { return c.r.Read(p) }
