package apiserver

import (
	"context"
	"fmt"
	"sort"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
)

// Bounds of one read: FlowSchemas per page and in all (a cluster has a dozen or two).
var (
	flowSchemaPageSize int64 = 250
	maxRead                  = 1000
)

// listFlowSchemas is the permission Read needs.
var listFlowSchemas = access.Permission{Verb: "list", Group: "flowcontrol.apiserver.k8s.io", Resource: "flowschemas",
	For: "to find the FlowSchema that classifies a controller's requests"}

// ReadFlowSchemas lists the cluster's FlowSchemas (flowcontrol.apiserver.k8s.io/v1), after checking the
// user may, in pages and up to maxRead, and keeps of each what says whose requests it
// classifies and where it sends them, in the API server's matching order. A permission the
// user lacks, or a list that fails, is a note, never an error.
func ReadFlowSchemas(ctx context.Context, client kubernetes.Interface) FlowControl {
	var v FlowControl
	missing, err := access.Missing(ctx, client, []access.Permission{listFlowSchemas})
	switch {
	case err != nil:
		v.Notes = append(v.Notes, fmt.Sprintf("the FlowSchemas were not read: %v", err))
		return v
	case len(missing) > 0:
		v.Notes = append(v.Notes, "the FlowSchemas were not read: needs RBAC verb list on flowschemas.flowcontrol.apiserver.k8s.io")
		return v
	}
	opts := metav1.ListOptions{Limit: flowSchemaPageSize}
	for {
		l, err := client.FlowcontrolV1().FlowSchemas().List(ctx, opts)
		if err != nil {
			v.Notes = append(v.Notes, fmt.Sprintf("the FlowSchemas were not read: %v", err))
			return v
		}
		for i := range l.Items {
			if len(v.FlowSchemas) >= maxRead {
				break
			}
			v.FlowSchemas = append(v.FlowSchemas, flowSchema(&l.Items[i]))
		}
		if l.Continue == "" {
			break
		}
		if len(v.FlowSchemas) >= maxRead {
			v.Notes = append(v.Notes, fmt.Sprintf("only the first %d FlowSchemas were read", maxRead))
			break
		}
		opts.Continue = l.Continue
	}
	SortFlowSchemas(v.FlowSchemas)
	return v
}

// SortFlowSchemas puts FlowSchemas in the order the API server matches them: the lowest
// matchingPrecedence first, ties by name.
func SortFlowSchemas(fs []FlowSchema) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].MatchingPrecedence != fs[j].MatchingPrecedence {
			return fs[i].MatchingPrecedence < fs[j].MatchingPrecedence
		}
		return fs[i].Name < fs[j].Name
	})
}

// flowSchema keeps what classifying needs; the default matchingPrecedence is 1000.
func flowSchema(in *flowcontrolv1.FlowSchema) FlowSchema {
	out := FlowSchema{Name: in.Name, PriorityLevel: in.Spec.PriorityLevelConfiguration.Name, MatchingPrecedence: in.Spec.MatchingPrecedence}
	if out.MatchingPrecedence == 0 {
		out.MatchingPrecedence = 1000
	}
	for _, r := range in.Spec.Rules {
		rule := FlowRule{NonResource: len(r.NonResourceRules) > 0}
		for _, s := range r.Subjects {
			switch {
			case s.User != nil:
				rule.Subjects = append(rule.Subjects, Subject{Kind: "User", Name: s.User.Name})
			case s.Group != nil:
				rule.Subjects = append(rule.Subjects, Subject{Kind: "Group", Name: s.Group.Name})
			case s.ServiceAccount != nil:
				rule.Subjects = append(rule.Subjects, Subject{Kind: "ServiceAccount", Name: s.ServiceAccount.Name, Namespace: s.ServiceAccount.Namespace})
			}
		}
		for _, rr := range r.ResourceRules {
			rule.Resources = append(rule.Resources, ResourceRule{Verbs: rr.Verbs, APIGroups: rr.APIGroups, Resources: rr.Resources})
		}
		out.Rules = append(out.Rules, rule)
	}
	return out
}
