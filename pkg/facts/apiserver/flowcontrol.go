package apiserver

import (
	"slices"
	"strconv"
	"strings"
)

// FlowControl is the FlowSchemas of the cluster, in the order the API server matches them
// (matchingPrecedence, then name), and what could not be read.
type FlowControl struct {
	FlowSchemas []FlowSchema `json:"flowSchemas,omitempty"`
	// Notes say what could not be read, and what permission would help.
	Notes []string `json:"notes,omitempty"`
}

// FlowSchema is one FlowSchema: the priority level it sends its requests to and the rules that
// say whose requests those are.
type FlowSchema struct {
	Name               string     `json:"name"`
	PriorityLevel      string     `json:"priorityLevel"`
	MatchingPrecedence int32      `json:"matchingPrecedence"`
	Rules              []FlowRule `json:"rules,omitempty"`
}

// FlowRule is one of a FlowSchema's rules: its subjects, and the requests it covers.
type FlowRule struct {
	Subjects  []Subject      `json:"subjects"`
	Resources []ResourceRule `json:"resources,omitempty"`
	// NonResource says the rule covers non-resource URLs (/healthz, /metrics ...) too.
	NonResource bool `json:"nonResource,omitempty"`
}

// Subject is one subject of a rule: a user, a group or a ServiceAccount ("*" for any name or
// namespace where the API allows it).
type Subject struct {
	// Kind is User, Group or ServiceAccount.
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// ResourceRule is a rule's resource part: verbs on resources of API groups, in namespaces
// (not compared: a controller's requests span namespaces).
type ResourceRule struct {
	Verbs     []string `json:"verbs"`
	APIGroups []string `json:"apiGroups"`
	Resources []string `json:"resources"`
}

// Identity is who the API server sees a request from.
type Identity struct {
	User   string
	Groups []string
}

// ServiceAccount is the identity of a ServiceAccount's token: its user name and the groups
// the API server gives every ServiceAccount and those of its namespace.
func ServiceAccount(namespace, name string) Identity {
	return Identity{User: "system:serviceaccount:" + namespace + ":" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"}}
}

// Request is a kind of request a controller makes: a verb (as RBAC names it: get, list,
// watch, create, update, patch, delete) on a resource ("pods", "workloads/status").
type Request struct {
	Verb, Group, Resource string
}

// Classify is the FlowSchema that classifies id's requests, or nil when none does (or none was
// read): the first, in the API server's order, that has a rule whose subjects match id and
// whose resource rules cover one of reqs (any resource rule when reqs is empty). A rule for
// non-resource URLs only covers none of a controller's requests.
func (v *FlowControl) Classify(id Identity, reqs []Request) *FlowSchema {
	if v == nil {
		return nil
	}
	for i := range v.FlowSchemas {
		for _, r := range v.FlowSchemas[i].Rules {
			if r.matches(id) && r.covers(reqs) {
				return &v.FlowSchemas[i]
			}
		}
	}
	return nil
}

func (r FlowRule) matches(id Identity) bool {
	for _, s := range r.Subjects {
		switch s.Kind {
		case "User":
			if s.Name == "*" || s.Name == id.User {
				return true
			}
		case "Group":
			if s.Name == "*" || slices.Contains(id.Groups, s.Name) {
				return true
			}
		case "ServiceAccount":
			ns, name, ok := strings.Cut(strings.TrimPrefix(id.User, "system:serviceaccount:"), ":")
			if ok && strings.HasPrefix(id.User, "system:serviceaccount:") && (s.Namespace == "*" || s.Namespace == ns) && (s.Name == "*" || s.Name == name) {
				return true
			}
		}
	}
	return false
}

func (r FlowRule) covers(reqs []Request) bool {
	if len(reqs) == 0 {
		return len(r.Resources) > 0
	}
	for _, rr := range r.Resources {
		for _, q := range reqs {
			if anyOf(rr.Verbs, q.Verb) && anyOf(rr.APIGroups, q.Group) && anyOf(rr.Resources, q.Resource) {
				return true
			}
		}
	}
	return false
}

// String is "FlowSchema NAME (priority level LEVEL, matchingPrecedence N)".
func (f FlowSchema) String() string {
	return "FlowSchema " + f.Name + " (priority level " + f.PriorityLevel + ", matchingPrecedence " + strconv.Itoa(int(f.MatchingPrecedence)) + ")"
}
