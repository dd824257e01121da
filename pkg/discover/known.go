package discover

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// knownImage is a well-known controller whose pods name no metrics port (external-dns' own
// manifests declare none; its chart names the port "http"): the image's repository ends in
// repo, and it serves /metrics over HTTP on the port of its flag, default port.
type knownImage struct {
	repo, flag string
	port       int32
}

var knownImages = []knownImage{{repo: "external-dns/external-dns", flag: "--metrics-address", port: 7979}}

// knownImageTargets are the targets of the containers of pod that run a knownImage, on the
// port their flag sets (the last one, as the flag parsers take it) or its default.
func knownImageTargets(pod *corev1.Pod, base target.Target) []target.Target {
	var ts []target.Target
	for _, c := range pod.Spec.Containers {
		for _, k := range knownImages {
			if !strings.HasSuffix(imageRepository(c.Image), k.repo) {
				continue
			}
			port, from := k.port, "its default"
			if p, ok := flagPort(append(append([]string{}, c.Command...), c.Args...), k.flag); ok {
				port, from = p, k.flag
			}
			t := base
			t.Port, t.Container, t.Scheme = port, c.Name, "http"
			t.Reason = fmt.Sprintf("image %s serves metrics on port %d (%s)", k.repo, port, from)
			ts = append(ts, t)
		}
	}
	return ts
}

// imageRepository is image without its tag or digest.
func imageRepository(image string) string {
	image, _, _ = strings.Cut(image, "@")
	if i := strings.LastIndexByte(image, ':'); i > strings.LastIndexByte(image, '/') {
		image = image[:i]
	}
	return image
}

// flagPort is the port of the last "--flag=HOST:PORT" or "--flag HOST:PORT" in args.
func flagPort(args []string, flag string) (int32, bool) {
	var addr string
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, flag+"="):
			addr = strings.TrimPrefix(a, flag+"=")
		case a == flag && i+1 < len(args):
			addr = args[i+1]
		}
	}
	if addr == "" {
		return 0, false
	}
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return int32(n), true
}
