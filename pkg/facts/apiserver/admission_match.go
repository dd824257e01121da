package apiserver

import "strings"

// Write is one kind of request a controller sends: an operation on a resource.
type Write struct {
	// Operation is CREATE, UPDATE or DELETE (a PATCH is an UPDATE to admission).
	Operation string
	Group     string
	// Resource is the plural resource, with "/subresource" when it writes one ("pods",
	// "workloads/status").
	Resource   string
	Namespaced bool
}

// String is "CREATE pods", "UPDATE workloads.example.com/status".
func (w Write) String() string {
	res, sub, _ := strings.Cut(w.Resource, "/")
	if w.Group != "" {
		res += "." + w.Group
	}
	if sub != "" {
		res += "/" + sub
	}
	return w.Operation + " " + res
}

// Intercepts reports whether one of the webhook's rules matches the write, as the API server
// matches them: operation, API group and resource each "*" or equal, a resource
// "res/sub" matched half by half ("pods/*" also covers pods itself), and the scope. Versions
// are not compared (the default matchPolicy Equivalent sends every version); selectors and
// match conditions are not evaluated, so a match means the webhook may see the write.
func (w Webhook) Intercepts(x Write) bool {
	for _, r := range w.Rules {
		if r.matches(x) {
			return true
		}
	}
	return false
}

func (r Rule) matches(x Write) bool {
	if !anyOf(r.Operations, x.Operation) || !anyOf(r.APIGroups, x.Group) {
		return false
	}
	switch r.Scope {
	case "Namespaced":
		if !x.Namespaced {
			return false
		}
	case "Cluster":
		if x.Namespaced {
			return false
		}
	}
	res, sub, _ := strings.Cut(x.Resource, "/")
	for _, rr := range r.Resources {
		rres, rsub, _ := strings.Cut(rr, "/")
		if (rres == "*" || rres == res) && (rsub == "*" || rsub == sub) {
			return true
		}
	}
	return false
}

func anyOf(list []string, v string) bool {
	for _, s := range list {
		if s == "*" || s == v {
			return true
		}
	}
	return false
}
