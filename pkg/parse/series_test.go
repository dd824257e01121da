package parse

import (
	"math"
	"strconv"
	"testing"

	"github.com/prometheus/common/model"
)

// seriesCases are pages whose summary and histogram lines continue the previous line's
// series (continueSeries), or look as if they did and must be read in full.
var seriesCases = []fastCase{
	{"buckets of one series", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"0.1\"} 1\nh_bucket{a=\"1\",le=\"1\"} 2\nh_bucket{a=\"1\",le=\"+Inf\"} 3\nh_sum{a=\"1\"} 4\nh_count{a=\"1\"} 3\n", true},
	{"le only", "# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 2\n", true},
	{"le first, then last", "# TYPE h histogram\nh_bucket{le=\"0.1\",a=\"1\"} 1\nh_bucket{a=\"1\",le=\"1\"} 2\nh_bucket{a=\"1\",le=\"+Inf\"} 3\n", true},
	{"next series shares a prefix", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",b=\"2\",le=\"1\"} 2\nh_bucket{a=\"1\",le=\"+Inf\"} 3\n", true},
	{"value longer than the previous one", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"10\",le=\"1\"} 2\n", true},
	{"le followed by a label", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"2\",b=\"3\"} 2\n", true},
	{"le twice", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"2\",le=\"3\"} 2\n", true},
	{"timestamps", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1 1000\nh_bucket{a=\"1\",le=\"2\"} 2 2000\n", true},
	{"float then integer counts", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1.5\nh_bucket{a=\"1\",le=\"2\"} 2\nh_count{a=\"1\"} 2\n", true},
	{"escaped le", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"\\\\2\"} 2\n", false},
	{"bad le after a good one", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"x\"} 2\n", false},
	{"bad value after a good one", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"2\"} x\n", false},
	{"negative count after a good one", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"2\"} -1.5\n", false},
	{"unclosed after le", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"2\" 2\n", false},
	{"invalid utf8 le", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"1\",le=\"\xff\"} 2\n", false},
	{"type line in between", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\n# TYPE g gauge\nh_bucket{le=\"2\"} 2\n", true},
	{"type of the bucket name after samples", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\n# TYPE h_bucket gauge\nh_bucket{le=\"2\"} 2\n", false},
	{"quantiles of one series", "# TYPE s summary\ns{x=\"1\",quantile=\"0.5\"} 1\ns{x=\"1\",quantile=\"0.9\"} 2\ns{x=\"2\",quantile=\"0.5\"} 3\ns_count{x=\"1\"} 4\n", true},
	{"le of a summary is a label", "# TYPE s summary\ns{x=\"1\",quantile=\"0.5\"} 1\ns{x=\"1\",le=\"0.9\"} 2\n", true},
	{"quantile of a histogram is a label", "# TYPE h histogram\nh_bucket{x=\"1\",le=\"1\"} 1\nh_bucket{x=\"1\",quantile=\"0.9\"} 2\n", true},
	{"count line with le", "# TYPE h histogram\nh_count{x=\"1\",le=\"1\"} 1\nh_count{x=\"1\",le=\"2\"} 2\n", true},
	{"sum and count without labels", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\nh_count 2\n", true},
	{"sum with empty braces", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum{} 3\nh_count 2\n", true},
	{"sum of another series", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_sum{a=\"2\"} 3\nh_count{a=\"1\"} 2\n", true},
	{"sum with its labels in another order", "# TYPE h histogram\nh_bucket{a=\"1\",b=\"2\",le=\"+Inf\"} 2\nh_sum{b=\"2\",a=\"1\"} 3\nh_count{a=\"1\",b=\"2\"} 2\n", true},
	{"sum with one label more", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_sum{a=\"1\",b=\"2\"} 3\n", true},
	{"sum and count with timestamps", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2 1000\nh_sum{a=\"1\"} 3 1000\nh_count{a=\"1\"} 2 1000\n", true},
	{"count before sum, then buckets again", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_count{a=\"1\"} 2\nh_sum{a=\"1\"} 3\nh_bucket{a=\"1\",le=\"+Inf\"} 2\n", true},
	{"float count", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2.5\nh_count{a=\"1\"} 2.5\n", true},
	{"negative float count", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_count{a=\"1\"} -2.5\n", false},
	{"bad sum value", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_sum{a=\"1\"} x\n", false},
	{"sum unclosed", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_sum{a=\"1\" 3\n", false},
	{"a family named like the sum", "# TYPE h_sum gauge\nh_sum 1\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\nh_count 2\n", true},
	{"a family named like the count", "# TYPE h_count counter\nh_count{a=\"1\"} 1\n# TYPE h histogram\nh_bucket{a=\"1\",le=\"+Inf\"} 2\nh_count{a=\"1\"} 5\n", true},
	{"sum and count of a summary", "# TYPE s summary\ns{x=\"1\",quantile=\"0.5\"} 1\ns{x=\"1\",quantile=\"0.9\"} 2\ns_sum{x=\"1\"} 7\ns_count{x=\"1\"} 4\n", true},
	{"sum of a summary without labels", "# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 7\ns_count 4\n", true},
	{"name longer than the sum", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_summary 3\n", true},
	{"series interleaved", "# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\nh_bucket{a=\"2\",le=\"1\"} 2\nh_bucket{a=\"1\",le=\"2\"} 3\nh_bucket{a=\"2\",le=\"2\"} 4\n", true},
}

// The fast path reads every case as expfmt does, or declines it, and Parse always agrees
// with expfmt.
func TestContinueSeriesCases(t *testing.T) { runFastCases(t, seriesCases) }

// signature is model.LabelsToSignature of the line's labels and the family's name, whatever
// their order.
func TestSignatureIsModels(t *testing.T) {
	sets := [][][2]string{
		nil,
		{{"a", "1"}},
		{{"name", "q"}, {"controller", "c"}},
		{{"Z", "upper"}, {"_x", "under"}, {"a", ""}, {"a0", "x"}, {"b", "héllo"}},
		{{"resource", "pods"}, {"version", "v1"}, {"group", ""}, {"name", "kcm"}},
	}
	for _, set := range sets {
		p := fastParser{}
		want := map[string]string{model.MetricNameLabel: "fam"}
		for _, l := range set {
			n, v := l[0], l[1]
			p.labels = append(p.labels, label{&n, &v})
			want[n] = v
		}
		if got, want := p.signature("fam"), model.LabelsToSignature(want); got != want {
			t.Errorf("%v: signature %d, model's %d", set, got, want)
		}
	}
}

// parseFloat reads what strconv.ParseFloat reads, digits alone (smallUint) included.
func TestParseFloatDigits(t *testing.T) {
	for _, s := range []string{"0", "7", "007", "123456789012345", "999999999999999", "1234567890123456",
		"9007199254740993", "18446744073709551616", "", "-1", "+1", "1e3", "1.5", "0x10", "1_0", "NaN", "+Inf", "١"} {
		got, gotErr := parseFloat([]byte(s))
		want, wantErr := strconv.ParseFloat(s, 64)
		if s == "0x10" || s == "1_0" {
			wantErr = strconv.ErrSyntax // expfmt's: no hex floats, no digit separators
		}
		if (gotErr != nil) != (wantErr != nil) || gotErr == nil && math.Float64bits(got) != math.Float64bits(want) && !math.IsNaN(want) {
			t.Errorf("parseFloat(%q) = %v, %v; want %v, %v", s, got, gotErr, want, wantErr)
		}
	}
}
