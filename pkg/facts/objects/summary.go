package objects

import (
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// maxExamples bounds the objects named per reason, and the deletions kept.
const maxExamples = 3

// Summary is what the objects of one kind say about the controllers that reconcile them.
type Summary struct {
	Kind Kind `json:"kind"`
	// Controllers reconcile this kind, as "target queue".
	Controllers []string `json:"controllers"`
	// Namespace is the namespace read; "" for all (and for kinds without a namespace), or for
	// a kind read namespace by namespace in Namespaces.
	Namespace string `json:"namespace,omitempty"`
	// Namespaces, when set, are the namespaces the kind was read in one by one: a cluster-wide
	// controller's kind the user may list there but not in all namespaces.
	Namespaces []string `json:"namespaces,omitempty"`
	// Scope says why a kind was read in every namespace although one was asked, when its
	// controller's RBAC decided it: "controller workload reconciles workloads.demo.ctrldiag.dev
	// in every namespace (ClusterRole op bound to its ServiceAccount ops/op by
	// ClusterRoleBinding op)".
	Scope string `json:"scope,omitempty"`
	// Capped says there were more objects than were read (the read stops at a bound); the
	// figures count those read.
	Capped bool `json:"capped,omitempty"`
	Total  int  `json:"total"`
	// Failed are the objects whose status says they cannot be made ready, by reason.
	Failed  int      `json:"failed"`
	Reasons []Reason `json:"reasons,omitempty"`
	// FailedOtherReasons counts the failed objects whose reason came after maxReasons others:
	// they are in Failed, not in Reasons.
	FailedOtherReasons int `json:"failedOtherReasons,omitempty"`
	// BehindSpec are the objects whose status.observedGeneration trails their generation.
	BehindSpec         int      `json:"behindSpec"`
	BehindSpecExamples []string `json:"behindSpecExamples,omitempty"`
	// Deleting are objects being deleted that still have finalizers, oldest first; Deletions
	// holds the oldest few.
	Deleting  int        `json:"deleting"`
	Deletions []Deletion `json:"deletions,omitempty"`
	// Error says why the kind could not be listed (with the RBAC it needs).
	Error string `json:"error,omitempty"`
	// Changes are the objects' changes while the metrics were read (live reads only).
	Changes *Changes `json:"changes,omitempty"`
	// SpecLatency is how long the controllers took to act on the objects' spec changes while
	// the metrics were read (live reads only).
	SpecLatency *SpecLatency `json:"specLatency,omitempty"`
	// TimeToReady is how long the objects took to become Ready after those changes (live
	// reads only).
	TimeToReady *TimeToReady `json:"timeToReady,omitempty"`
}

// Reason is the objects that failed for one reason.
type Reason struct {
	// Condition is the condition that says so: "Ready=False", "Stalled=True",
	// "Degraded=True", "ReplicaFailure=True", "Progressing=False" or "Available=False".
	Condition string `json:"condition"`
	Reason    string `json:"reason"`
	Count     int    `json:"count"`
	// Objects are up to three of them ("namespace/name"); Message the message of the first
	// (its first 200 characters).
	Objects []string `json:"objects"`
	Message string   `json:"message,omitempty"`
	// OldestSeconds is how long the oldest of them has been in this state (0 when unknown).
	OldestSeconds float64 `json:"oldestSeconds"`
	// Messages counts the distinct messages (after the first 200 characters).
	Messages map[string]int `json:"messages,omitempty"`
}

// Deletion is an object whose deletion waits on finalizers.
type Deletion struct {
	Object     string   `json:"object"`
	Finalizers []string `json:"finalizers"`
	AgeSeconds float64  `json:"ageSeconds"`
}

// objectName is how outputs name an object: "namespace/name", or "name" without a namespace.
func objectName(u *unstructured.Unstructured) string {
	if ns := u.GetNamespace(); ns != "" {
		return ns + "/" + u.GetName()
	}
	return u.GetName()
}

const (
	// maxMessages bounds the distinct messages counted per reason.
	maxMessages = 5
	// maxReasons bounds the reasons kept of one kind: every object may carry its own.
	maxReasons = 50
)

// Add counts one object.
func (s *Summary) Add(u *unstructured.Unstructured, now time.Time) {
	s.Total++
	name := objectName(u)
	if c, ok := failed(u); ok {
		s.Failed++
		s.addReason(name, c, now)
	}
	if behindSpec(u) {
		s.BehindSpec++
		if len(s.BehindSpecExamples) < maxExamples {
			s.BehindSpecExamples = append(s.BehindSpecExamples, name)
		}
	}
	if ts := u.GetDeletionTimestamp(); ts != nil && len(u.GetFinalizers()) > 0 {
		s.Deleting++
		s.Deletions = append(s.Deletions, Deletion{Object: name, Finalizers: u.GetFinalizers(), AgeSeconds: now.Sub(ts.Time).Seconds()})
		sort.SliceStable(s.Deletions, func(i, j int) bool { return s.Deletions[i].AgeSeconds > s.Deletions[j].AgeSeconds })
		if len(s.Deletions) > maxExamples {
			s.Deletions = s.Deletions[:maxExamples]
		}
	}
}

func (s *Summary) addReason(name string, c condition, now time.Time) {
	cond := c.Type + "=" + c.Status
	reason := c.Reason
	if reason == "" {
		reason = "(no reason)"
	}
	var r *Reason
	for i := range s.Reasons {
		if s.Reasons[i].Condition == cond && s.Reasons[i].Reason == reason {
			r = &s.Reasons[i]
		}
	}
	if r == nil && len(s.Reasons) >= maxReasons {
		s.FailedOtherReasons++
		return
	}
	if r == nil {
		s.Reasons = append(s.Reasons, Reason{Condition: cond, Reason: reason, Message: shortMessage(c.Message)})
		r = &s.Reasons[len(s.Reasons)-1]
	}
	r.Count++
	if len(r.Objects) < maxExamples {
		r.Objects = append(r.Objects, name)
	}
	if !c.Since.IsZero() {
		if age := now.Sub(c.Since).Seconds(); age > r.OldestSeconds {
			r.OldestSeconds = age
		}
	}
	if m := shortMessage(c.Message); m != "" {
		if _, ok := r.Messages[m]; ok || len(r.Messages) < maxMessages {
			if r.Messages == nil {
				r.Messages = map[string]int{}
			}
			r.Messages[m]++
		}
	}
}

// Sort orders the reasons, most objects first.
func (s *Summary) Sort() {
	sort.SliceStable(s.Reasons, func(i, j int) bool {
		if s.Reasons[i].Count != s.Reasons[j].Count {
			return s.Reasons[i].Count > s.Reasons[j].Count
		}
		return s.Reasons[i].Reason < s.Reasons[j].Reason
	})
}

func shortMessage(m string) string {
	m = strings.Join(strings.Fields(m), " ")
	if len(m) > 200 {
		m = m[:200] + "..."
	}
	return m
}
