package scenario

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

// FlowControl is the API Priority and Fairness a scenario sets up: the operator's own
// requests that match Rules in its namespace go to a priority level of their own with no
// seats (nominalConcurrencyShares 0, nothing lent or borrowed) that rejects rather than
// queues. A level with no seats still runs one request when none of its others runs (APF
// admits a request wider than the limit into an idle level), so the level runs the operator's
// matching requests one at a time and answers 429 Too Many Requests to every one that comes
// while another runs.
//
// Why no seats rather than a few: the API server divides its seats (600 by default) among the
// levels by their shares (about 245 in all), so even one share is 3 seats, and a few workers
// would seldom be turned away.
type FlowControl struct {
	Rules []ResourceRule
}

// ResourceRule matches Verbs on Resource (plural, "/subresource" for one) of API group Group.
type ResourceRule struct {
	Group, Resource string
	Verbs           []string
}

// FlowControlMatchingPrecedence places the scenario's FlowSchema ahead of the suggested ones
// that could classify a ServiceAccount's or a user's writes (kube-system-service-accounts
// 900, service-accounts 9000, global-default 9900), with no tie.
const FlowControlMatchingPrecedence = 450

// FlowControlName names the scenario's PriorityLevelConfiguration and FlowSchema for the
// operator in namespace ns (cluster-scoped objects, so one per namespace).
func FlowControlName(ns string) string {
	return "ctrldiag-apf-throttled-" + ns
}

// FlowControlObjects are the PriorityLevelConfiguration and the FlowSchema of fc for the
// operator running in namespace ns as user (the name the API server authenticates it as, e.g.
// system:serviceaccount:NS:NAME). Only that user's matching requests in ns are classified.
func FlowControlObjects(fc FlowControl, ns, user string) (*flowcontrolv1.PriorityLevelConfiguration, *flowcontrolv1.FlowSchema) {
	name := FlowControlName(ns)
	meta := metav1.ObjectMeta{Name: name, Labels: map[string]string{controller.LabelManaged: "true"}}
	plc := &flowcontrolv1.PriorityLevelConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: flowcontrolv1.SchemeGroupVersion.String(), Kind: "PriorityLevelConfiguration"},
		ObjectMeta: meta,
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{
			Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: ptr.To[int32](0),
				LendablePercent:          ptr.To[int32](0),
				BorrowingLimitPercent:    ptr.To[int32](0),
				LimitResponse:            flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject},
			},
		},
	}
	fs := &flowcontrolv1.FlowSchema{
		TypeMeta:   metav1.TypeMeta{APIVersion: flowcontrolv1.SchemeGroupVersion.String(), Kind: "FlowSchema"},
		ObjectMeta: *meta.DeepCopy(),
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: name},
			MatchingPrecedence:         FlowControlMatchingPrecedence,
			DistinguisherMethod:        &flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByUserType},
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects:      []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindUser, User: &flowcontrolv1.UserSubject{Name: user}}},
				ResourceRules: resourceRules(fc, ns),
			}},
		},
	}
	return plc, fs
}

func resourceRules(fc FlowControl, ns string) []flowcontrolv1.ResourcePolicyRule {
	out := make([]flowcontrolv1.ResourcePolicyRule, 0, len(fc.Rules))
	for _, r := range fc.Rules {
		out = append(out, flowcontrolv1.ResourcePolicyRule{Verbs: r.Verbs, APIGroups: []string{r.Group},
			Resources: []string{r.Resource}, Namespaces: []string{ns}})
	}
	return out
}
