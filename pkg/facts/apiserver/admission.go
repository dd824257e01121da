package apiserver

import "fmt"

// Admission is the admission webhooks of the cluster, as read (with the API's defaults applied),
// and what could not be read.
type Admission struct {
	Webhooks []Webhook `json:"webhooks,omitempty"`
	// Notes say what could not be read, and what permission would help.
	Notes []string `json:"notes,omitempty"`
	// Ownership is what the owner-reference probe found of the kinds controllers own, when
	// it ran (a slow or rejecting webhook to probe for).
	Ownership *Ownership `json:"ownership,omitempty"`
	// byName indexes Webhooks by name and type once the view is complete (Index).
	byName map[[2]string]int
}

// Owned are the kinds controller ("target queue") owns, as the owner-reference probe found
// them; nil when it found none or did not run.
func (v *Admission) Owned(controller string) []Owned {
	if v == nil {
		return nil
	}
	return v.Ownership.Of(controller)
}

// Webhook is one webhook of a Validating- or MutatingWebhookConfiguration.
type Webhook struct {
	// Configuration is the configuration's kind and name ("ValidatingWebhookConfiguration/x").
	Configuration string `json:"configuration"`
	// Name is the webhook's name within its configuration: the name label of the API server's
	// admission metrics.
	Name string `json:"name"`
	// Type is "validating", or "admit" for a mutating webhook, as the metrics' type label.
	Type  string `json:"type"`
	Rules []Rule `json:"rules,omitempty"`
	// NamespaceSelector and ObjectSelector are the selectors as text ("" when they select
	// everything); they are shown, not evaluated.
	NamespaceSelector string `json:"namespaceSelector,omitempty"`
	ObjectSelector    string `json:"objectSelector,omitempty"`
	MatchConditions   int    `json:"matchConditions,omitempty"`
	TimeoutSeconds    int32  `json:"timeoutSeconds"`
	FailurePolicy     string `json:"failurePolicy"`
}

// Rule is one of a webhook's rules: the operations on the resources it intercepts.
type Rule struct {
	Operations []string `json:"operations"`
	APIGroups  []string `json:"apiGroups"`
	Resources  []string `json:"resources"`
	// Scope is "*", "Namespaced" or "Cluster".
	Scope string `json:"scope"`
}

// Find returns the webhook of type typ named name, or nil. Two configurations may hold
// webhooks of one name; the first is returned.
func (v *Admission) Find(name, typ string) *Webhook {
	if v == nil {
		return nil
	}
	if v.byName != nil {
		if i, ok := v.byName[[2]string{name, typ}]; ok {
			return &v.Webhooks[i]
		}
		return nil
	}
	for i := range v.Webhooks {
		if v.Webhooks[i].Name == name && v.Webhooks[i].Type == typ {
			return &v.Webhooks[i]
		}
	}
	return nil
}

// Policy says how the webhook is bounded: "timeoutSeconds 10, failurePolicy Fail".
func (w Webhook) Policy() string {
	return fmt.Sprintf("timeoutSeconds %d, failurePolicy %s", w.TimeoutSeconds, w.FailurePolicy)
}
