package report

import (
	"slices"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Controllers are the controllers the targets read run, for objects.Resolve: each
// controller-runtime controller, and each queue of other targets, with the kind of
// controller that decides how its name maps to a kind, and whether it reconciles every
// namespace (kube-controller-manager; a controller pkg/facts/knobs knows to, unless its flags
// restrict it).
func Controllers(targets []model.Target) []objects.Controller {
	var out []objects.Controller
	for _, m := range targets {
		cur := m.Last()
		if cur == nil {
			continue
		}
		runtime := string(findings.KindOf(cur, m.PodLabels()))
		if cur.SyncsOnly != "" {
			runtime = cur.SyncsOnly // its controllers' names map to kinds by its own table
		}
		wide, account, unsure := allNamespaces(m, cur, runtime)
		names := map[string]bool{}
		for name := range cur.Controllers {
			names[name] = true
		}
		if len(cur.Controllers) == 0 {
			for name := range cur.Queues {
				names[name] = true
			}
		}
		sorted := make([]string, 0, len(names))
		for name := range names {
			sorted = append(sorted, name)
		}
		sort.Strings(sorted)
		for _, name := range sorted {
			out = append(out, objects.Controller{Target: m.ID(), Name: name, Runtime: runtime, ClusterWide: wide, ServiceAccount: account, Unsure: unsure})
		}
	}
	return out
}

// allNamespaces says whether the target's controllers reconcile their kinds in every
// namespace: kube-controller-manager does, the API server does not, a controller pkg/facts/knobs
// knows as its table and flags say. For another controller whose container's flags do not
// restrict it to namespaces, it returns the ServiceAccount of its pod instead
// ("namespace/name"), whose RBAC decides kind by kind; and when only a WATCH_NAMESPACE(S)
// whose value could not be had restricts it, why (its RBAC then decides only whether a note
// says so).
func allNamespaces(m model.Target, cur *health.Snapshot, runtime string) (wide bool, account, unsure string) {
	switch runtime {
	case string(findings.KubeControllerManager):
		return true, "", ""
	case string(findings.KubeAPIServer):
		return false, "", ""
	}
	s := knobs.Seen{Families: cur.Families}
	var w *knobs.WatchEnv
	if m.Pod != nil {
		c, _ := m.Served()
		w = m.WatchEnv[c.Name]
		s.Image, s.Args, s.Env = c.Image, slices.Concat(c.Command, c.Args), envOf(c, w)
	}
	for name := range cur.Queues {
		s.Queues = append(s.Queues, name)
	}
	for name := range cur.Controllers {
		s.Queues = append(s.Queues, name)
	}
	if km, ok := knobs.Recognise(s); ok {
		return km.AllNamespaces(), "", ""
	}
	if m.Pod == nil {
		return false, "", ""
	}
	unsure = knobs.Unsure(s, w)
	if unsure == "" && knobs.Restricted(s) != "" {
		return false, "", ""
	}
	account = m.Pod.Spec.ServiceAccountName
	if account == "" {
		account = "default"
	}
	return false, m.Pod.Namespace + "/" + account, unsure
}

// envOf is a container's environment as knobs.Seen holds it: the values it gives, and
// knobs.Unknown for those it takes from elsewhere, WATCH_NAMESPACE(S) as w resolved them.
func envOf(c corev1.Container, w *knobs.WatchEnv) map[string]string {
	if len(c.Env) == 0 && len(c.EnvFrom) == 0 {
		return nil
	}
	return w.Env(given(c))
}

// given is a container's environment as the container itself gives it.
func given(c corev1.Container) map[string]string {
	out := map[string]string{}
	if len(c.EnvFrom) > 0 {
		out[knobs.Others] = knobs.Unknown
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			out[e.Name] = knobs.Unknown
		} else {
			out[e.Name] = e.Value
		}
	}
	return out
}
