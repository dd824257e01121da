package promsource

import (
	"testing"
)

// labelKeyBefore is labelKey as it was built before: through the protobuf pairs of a copy
// of the labels. The baseline of BenchmarkLabelKey and the reference of FuzzLabelKey.
func labelKeyBefore(l map[string]string, drop ...string) string {
	var b []byte
	for _, p := range labelPairs(without(l, drop...)) {
		b = append(b, p.GetName()+"="+p.GetValue()+"\xff"...)
	}
	return string(b)
}

// FuzzLabelKey: labelKey is the key it always was, whatever the labels and the dropped ones.
func FuzzLabelKey(f *testing.F) {
	f.Add("__name__", "workqueue_adds_total", "name", "q", "le", "0.1", "le")
	f.Add("", "", "a", "", "a", "b", "")
	f.Add("z\xff", "=", "a=", "\xff", "quantile", "0.5", "quantile")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, k3, v3, drop string) {
		l := map[string]string{k1: v1, k2: v2, k3: v3}
		for _, d := range [][]string{nil, {drop}, {drop, k1}} {
			if got, want := labelKey(l, d...), labelKeyBefore(l, d...); got != want {
				t.Fatalf("labelKey(%q, %q) = %q, was %q", l, d, got, want)
			}
		}
	})
}

// BenchmarkLabelKey: a series' key, against the way it was built before, in the same run.
func BenchmarkLabelKey(b *testing.B) {
	l := map[string]string{"__name__": "workqueue_work_duration_seconds_bucket", "controller": "deployment", "instance": "10.64.1.7:8443",
		"job": "team-07/controller-manager-metrics", "le": "0.005", "name": "deployment", "namespace": "team-07", "pod": "controller-0007-7d9f8b6c5-x2x4z"}
	b.Run("now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = labelKey(l, "le")
		}
	})
	b.Run("before", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = labelKeyBefore(l, "le")
		}
	})
}
