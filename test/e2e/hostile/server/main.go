// Command server runs the hostile endpoints (package hostile) for the e2e suite, behind pods:
// --listen serves the modes over plain HTTP, --listen-tls over HTTPS with a certificate for
// another name, --listen-silent accepts connections and never answers.
package main

import (
	"flag"
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
	plain := flag.String("listen", "", "address for the HTTP modes")
	secure := flag.String("listen-tls", "", "address for the HTTPS modes (certificate for wrong-name.invalid)")
	silent := flag.String("listen-silent", "", "address that accepts and never answers")
	flag.Parse()

	var closers []func() error
	serve := func(addr string, tlsOn bool) {
		if addr == "" {
			return
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			log.Fatalf("hostile server: %v", err)
		}
		srv := &http.Server{Handler: hostile.Handler(), ReadHeaderTimeout: 10 * time.Second}
		closers = append(closers, srv.Close)
		if tlsOn {
			cfg, err := hostile.WrongNameTLS()
			if err != nil {
				log.Fatalf("hostile server: %v", err)
			}
			srv.TLSConfig = cfg
			go func() { _ = srv.ServeTLS(ln, "", "") }()
			return
		}
		go func() { _ = srv.Serve(ln) }()
	}
	serve(*plain, false)
	serve(*secure, true)
	if *silent != "" {
		ln, err := net.Listen("tcp", *silent)
		if err != nil {
			log.Fatalf("hostile server: %v", err)
		}
		closers = append(closers, ln.Close)
		go hostile.Silent(ln)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	for _, c := range closers {
		_ = c()
	}
}
