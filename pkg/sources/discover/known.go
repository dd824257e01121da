package discover

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
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
// port their flag sets (the last one, as the flag parsers take it) or its default. Images and
// flags are read as pkg/facts/knobs reads them to recognise the controller.
func knownImageTargets(pod *corev1.Pod, base target.Target) []target.Target {
	var ts []target.Target
	for _, c := range pod.Spec.Containers {
		for _, k := range knownImages {
			if !strings.HasSuffix(knobs.Repository(c.Image), k.repo) {
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

// flagPort is the port of the address the last flag in args gives ("HOST:PORT", ":PORT").
func flagPort(args []string, flag string) (int32, bool) {
	_, p, err := net.SplitHostPort(knobs.FlagValue(args, flag))
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return int32(n), true
}
