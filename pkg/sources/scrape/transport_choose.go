package scrape

import (
	"net"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Choose decides how to reach t. want is the user's --via; withToken says whether metrics
// credentials are set (the API server's proxy never forwards them). It returns the way and why.
func Choose(t target.Target, want target.Via, withToken bool) (target.Via, string) {
	switch t.Kind {
	case target.KindAPIServer:
		return target.ViaDirect, "the API server's own endpoint, with the kubeconfig's credentials"
	case target.KindService, target.KindPod:
	default:
		return target.ViaDirect, "scraped directly"
	}
	if want == target.ViaProxy || want == target.ViaPortForward {
		return want, "--via " + string(want)
	}
	if withToken {
		return target.ViaPortForward, "a metrics token is set and the API server's proxy drops credentials"
	}
	if ip := net.ParseIP(t.PodIP); ip == nil {
		return target.ViaPortForward, "the pod has no IP the API server's proxy can reach"
	} else if !proxyable(ip) {
		return target.ViaPortForward, "the API server refuses to proxy to the pod's address " + t.PodIP
	}
	return target.ViaProxy, "the API server's proxy needs only get pods/proxy; port-forward is the fallback"
}

// proxyable mirrors the API server's check of a pod IP before proxying to it.
func proxyable(ip net.IP) bool {
	return !(ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() || ip.IsUnspecified())
}
