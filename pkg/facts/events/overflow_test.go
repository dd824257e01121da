package events

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Two events whose series each say the largest count the API holds sum to twice that in their
// group, not to a negative number, and the JSON keeps its field name.
func TestGroupCountsDoNotWrap(t *testing.T) {
	last := now.Add(-10 * time.Second)
	withSeries := func(name string) *corev1.Event {
		e := event("shop", name, "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", math.MaxInt32, last, "quota")
		e.Series = &corev1.EventSeries{Count: math.MaxInt32, LastObservedTime: metav1.NewMicroTime(last)}
		return e
	}
	c := client(func(string) bool { return true }, withSeries("a"), withSeries("b"))
	v := Read(context.Background(), c, Request{Namespace: "shop", Since: now.Add(-time.Minute), Controllers: []Controller{replicaset}})
	if len(v.Groups) != 1 || int64(v.Groups[0].Count) != 2*math.MaxInt32 {
		t.Fatalf("groups %+v, want one of count %d", v.Groups, int64(2*math.MaxInt32))
	}
	b, err := json.Marshal(v.Groups[0])
	if err != nil || !strings.Contains(string(b), `"count":4294967294`) {
		t.Errorf("json %s %v", b, err)
	}
}
