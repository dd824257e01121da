package logs

import (
	"context"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// reviews makes the fake API server answer access reviews with allowed.
func reviews(c *fake.Clientset, allowed bool) {
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		r.Status.Allowed = allowed
		return true, r, nil
	})
}

func TestReadForbidden(t *testing.T) {
	c := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-0"}})
	reviews(c, false)
	l := ReadPodLog(context.Background(), c, PodLogRequest{Namespace: "ops", Pod: "op-0", Container: "manager", Since: time.Now().Add(-time.Minute)})
	if l.Note != "not read: needs RBAC verb get on pods/log in namespace ops" || l.Pod != "ops/op-0" || l.Lines != 0 {
		t.Errorf("%+v", l)
	}
}

func TestReadAllowed(t *testing.T) {
	// The fake client's log is "fake logs": read, parsed, no facts.
	c := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-0"}})
	reviews(c, true)
	l := ReadPodLog(context.Background(), c, PodLogRequest{Namespace: "ops", Pod: "op-0", Container: "manager", Since: time.Now().Add(-time.Minute)})
	if l.Note != "" || l.Lines != 1 || l.Failures != nil || l.Container != "manager" {
		t.Errorf("%+v", l)
	}
	var sawLogs bool
	for _, a := range c.Actions() {
		if a.GetSubresource() == "log" {
			sawLogs = true
			opts := a.(k8stesting.GenericAction).GetValue().(*corev1.PodLogOptions)
			if opts.Container != "manager" || !opts.Timestamps || opts.SinceSeconds == nil || *opts.SinceSeconds < 60 || *opts.LimitBytes != PodLogLimitBytes {
				t.Errorf("options %+v", opts)
			}
		}
	}
	if !sawLogs {
		t.Error("no pods/log request")
	}
}
