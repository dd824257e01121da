package operator

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// exemptGroup is the group whose requests API Priority and Fairness never limits (the
// suggested FlowSchema "exempt"): cluster-admin kubeconfigs of kubeadm, kind and envtest.
const exemptGroup = "system:masters"

// setUpFlowControl creates the scenario's PriorityLevelConfiguration and FlowSchema for the
// identity the API server sees the operator as (a SelfSubjectReview through c, which shares
// the operator's credentials and impersonation), and returns the function that deletes them.
// An identity in system:masters is exempt from API Priority and Fairness, so the scenario
// could not work: that is an error that says what to run as instead.
func setUpFlowControl(ctx context.Context, c client.Client, fc scenario.FlowControl, ns string) (func(), error) {
	review := &authenticationv1.SelfSubjectReview{}
	if err := c.Create(ctx, review); err != nil {
		return nil, fmt.Errorf("find the operator's identity for its FlowSchema (SelfSubjectReview): %w", err)
	}
	user := review.Status.UserInfo
	if slices.Contains(user.Groups, exemptGroup) {
		return nil, fmt.Errorf("the scenario throttles the operator with API Priority and Fairness, which exempts %s (user %q) from every limit: "+
			"run the operator as another identity, e.g. --as system:serviceaccount:%s:NAME for a ServiceAccount bound to a role that may "+
			"manage Workloads, ConfigMaps, Leases, CRDs and flowschemas/prioritylevelconfigurations", exemptGroup, user.Username, ns)
	}
	plc, fs := scenario.FlowControlObjects(fc, ns, user.Username)
	for _, obj := range []client.Object{plc, fs} {
		if err := c.Create(ctx, obj); err != nil {
			if !apierrors.IsAlreadyExists(err) {
				return nil, fmt.Errorf("create %s %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), err)
			}
			// Left by an earlier run that could not clean up: replace it with ours.
			if err := c.Delete(ctx, obj); client.IgnoreNotFound(err) != nil {
				return nil, fmt.Errorf("replace %s %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), err)
			}
			obj.SetResourceVersion("")
			if err := c.Create(ctx, obj); err != nil {
				return nil, fmt.Errorf("create %s %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), err)
			}
		}
	}
	if err := waitTakenUp(ctx, c, fs); err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("sent the operator's writes to a priority level with no seats of its own", "user", user.Username,
		"flowSchema", fs.Name, "priorityLevel", plc.Name)
	return func() {
		// The run's context is over by now: the deletion gets its own, bounded one.
		dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var errs []error
		for _, obj := range []client.Object{fs, plc} {
			if err := c.Delete(dctx, obj); client.IgnoreNotFound(err) != nil {
				errs = append(errs, err)
			}
		}
		if err := errors.Join(errs...); err != nil {
			log.FromContext(ctx).Error(err, "could not delete the scenario's FlowSchema and PriorityLevelConfiguration", "name", fs.Name)
		}
	}, nil
}

// waitTakenUp waits until the API server's flow control has digested fs: it then writes the
// FlowSchema's Dangling condition. Writes before that would not be throttled yet.
func waitTakenUp(ctx context.Context, c client.Client, fs *flowcontrolv1.FlowSchema) error {
	const limit = 20 * time.Second
	deadline := time.Now().Add(limit)
	for {
		var got flowcontrolv1.FlowSchema
		if err := c.Get(ctx, client.ObjectKeyFromObject(fs), &got); err != nil {
			return fmt.Errorf("read FlowSchema %s: %w", fs.Name, err)
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == flowcontrolv1.FlowSchemaConditionDangling && cond.Status == flowcontrolv1.ConditionFalse {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the API server did not take up FlowSchema %s within %s (no Dangling=False condition): is API Priority and Fairness enabled?", fs.Name, limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
