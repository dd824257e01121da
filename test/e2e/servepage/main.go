// Command servepage is a test process that stands behind a pod in the e2e suite: it serves a
// saved Prometheus page (captured from a real controller) at /metrics, over HTTP or over HTTPS
// with a self-signed certificate, optionally demanding a bearer token, or never answering
// (--hang) to test the bounds of the work. -files serves a folder at the other paths (a Helm
// repository's index for Flux); with --hang every path accepts the request and never answers
// (a git server that hangs). With -ports N it listens on N consecutive ports from the -listen
// port, so that one process stands behind many pods.
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
	"strconv"
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
	ports := flag.Int("ports", 1, "listen on this many consecutive ports, from the port of -listen")
	files := flag.String("files", "", "serve this folder's files at every other path (with -hang, every path hangs)")
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
	switch {
	case *hang:
		mux.HandleFunc("/", func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	case *files != "":
		mux.Handle("/", http.FileServer(http.Dir(*files)))
	}

	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		log.Fatalf("servepage: -listen: %v", err)
	}
	first, err := strconv.Atoi(port)
	if err != nil || *ports < 1 || first+*ports > 65536 {
		log.Fatalf("servepage: -listen %s -ports %d: not a port range", *listen, *ports)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if *useTLS {
		cfg, err := hostile.SelfSignedTLS("localhost")
		if err != nil {
			log.Fatalf("servepage: %v", err)
		}
		srv.TLSConfig = cfg
	}
	var lns []net.Listener
	for p := first; p < first+*ports; p++ {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err != nil {
			log.Fatalf("servepage: %v", err)
		}
		if srv.TLSConfig != nil {
			ln = tls.NewListener(ln, srv.TLSConfig)
		}
		lns = append(lns, ln)
	}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		<-sig
		_ = srv.Close()
	}()
	errs := make(chan error, len(lns))
	for _, ln := range lns {
		go func() { errs <- srv.Serve(ln) }()
	}
	if err := <-errs; err != nil && err != http.ErrServerClosed {
		log.Fatalf("servepage: %v", err)
	}
}
