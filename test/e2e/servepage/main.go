// Command servepage is a test process that stands behind a pod in the e2e suite: it serves a
// saved Prometheus page (captured from a real controller) at /metrics, over HTTP or over HTTPS
// with a self-signed certificate, optionally demanding a bearer token, or never answering
// (--hang) to test the bounds of the work.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/test/e2e/hostile"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8080", "address to listen on")
	file := flag.String("file", "", "the page to serve at /metrics")
	useTLS := flag.Bool("tls", false, "serve HTTPS with a self-signed certificate")
	token := flag.String("token", "", "when set, /metrics demands this bearer token (401 without one, 403 with another)")
	hang := flag.Bool("hang", false, "accept requests to /metrics but never answer (until the client gives up)")
	flag.Parse()

	page, err := os.ReadFile(*file)
	if err != nil {
		log.Fatalf("servepage: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if *hang {
			<-r.Context().Done()
			return
		}
		if *token != "" {
			switch r.Header.Get("Authorization") {
			case "":
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
				return
			case "Bearer " + *token:
			default:
				http.Error(w, "Authorization denied", http.StatusForbidden)
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("servepage: %v", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		<-sig
		_ = srv.Close()
	}()
	if *useTLS {
		cfg, err := hostile.SelfSignedTLS("localhost")
		if err != nil {
			log.Fatalf("servepage: %v", err)
		}
		srv.TLSConfig = cfg
		ln = tls.NewListener(ln, srv.TLSConfig)
	}
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		log.Fatalf("servepage: %v", err)
	}
}
