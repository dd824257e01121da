package controller

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
)

// backend is what a stuck reconcile calls: an HTTP server that accepts the connection, reads
// the request and never answers, as a hung external system does. The call is made with a
// client that has no Timeout and a context with no deadline (the reconcile's own), the bug
// that leaves real workers blocked for hours; the operator's shutdown still ends it.
type backend struct {
	once sync.Once
	url  string
	err  error
}

// call makes the request that never returns (until ctx ends).
func (b *backend) call(ctx context.Context, key string) error {
	b.once.Do(b.start)
	if b.err != nil {
		return fmt.Errorf("start the backend: %w", b.err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url+"/status?workload="+key, nil)
	if err != nil {
		return err
	}
	client := &http.Client{} // no Timeout: the fault this scenario stands for
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// start listens on a loopback port and holds every connection open without answering.
func (b *backend) start() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.err = err
		return
	}
	b.url = "http://" + l.Addr().String()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go hold(c)
		}
	}()
}

// hold reads what the client sends and never writes back; it ends when the client closes.
func hold(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}
