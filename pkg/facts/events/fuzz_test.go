package events

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// FuzzRead: whatever the events say, Read never panics, its counts are the events' counts
// summed (never negative), and its messages are one bounded line.
func FuzzRead(f *testing.F) {
	f.Add("FailedCreate", "pods \"web-x\" is forbidden:\n exceeded quota", "replicaset-controller", int32(3), int32(0), uint8(2))
	f.Add("BackOff", "(combined from similar events): x\r\ty", "kubelet", int32(-7), int32(2147483647), uint8(5))
	f.Add("\x1b]0;t\x07", strings.Repeat("é", 200), "", int32(2147483647), int32(-1), uint8(3))
	f.Fuzz(func(t *testing.T, reason, message, component string, count, series int32, copies uint8) {
		n := 1 + int(copies%5)
		last := now.Add(-10 * time.Second)
		var objs []runtime.Object
		var want int64
		for i := range n {
			e := event("shop", "e"+string(rune('a'+i)), "Warning", reason, component, "apps/v1", "ReplicaSet", "web", count, last, message)
			if series != 0 {
				e.Series = &corev1.EventSeries{Count: series, LastObservedTime: metav1.NewMicroTime(last)}
			}
			objs = append(objs, e)
			c := max(int64(count), 1)
			if series != 0 {
				c = max(c, int64(series))
			}
			want += c
		}
		c := client(func(string) bool { return true }, objs...)
		v := Read(context.Background(), c, Request{Namespace: "shop", Since: now.Add(-time.Minute), Controllers: []Controller{replicaset}})
		if len(v.Groups) > maxGroups {
			t.Fatalf("%d groups", len(v.Groups))
		}
		for _, g := range v.Groups {
			if g.Count != want {
				t.Fatalf("count %d, want %d", g.Count, want)
			}
			if len(g.Message) > maxMessage+len("...") || strings.ContainsAny(g.Message, "\n\r\t") {
				t.Fatalf("message %q", g.Message)
			}
			if utf8.ValidString(message) && !utf8.ValidString(g.Message) {
				t.Fatalf("a valid message was cut inside a character: %q", g.Message)
			}
		}
	})
}
