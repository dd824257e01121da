package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// kept returns the lines of page that the filter passes on for keep.
func kept(t testing.TB, page []byte, keep Keep) []byte {
	t.Helper()
	b, err := io.ReadAll(newFilter(bytes.NewReader(page), NewSelector(keep)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fastAgainstExpfmt parses page with parseFast and with expfmt. It returns whether the fast
// path accepted the page, and an error when it accepted it but read it differently from
// expfmt (including when expfmt rejects it).
func fastAgainstExpfmt(page []byte) (accepted bool, err error) {
	fast, ok := parseFast(page)
	if !ok {
		return false, nil
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	want, werr := parser.TextToMetricFamilies(bytes.NewReader(page))
	if werr != nil {
		return true, fmt.Errorf("the fast path accepted a page expfmt rejects (%v)", werr)
	}
	return true, sameFamilies(want, fast)
}

func sameFamilies(want, got map[string]*dto.MetricFamily) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d families, expfmt %d", len(got), len(want))
	}
	for n, f := range want {
		if !proto.Equal(f, got[n]) {
			return fmt.Errorf("family %s differs:\nexpfmt: %v\nfast:   %v", n, f, got[n])
		}
	}
	return nil
}

// Every captured page, and a generated large one, goes through the fast path (not expfmt)
// once filtered, and gives exactly expfmt's families.
func TestFastPathReadsEveryFixture(t *testing.T) {
	for name, page := range fixturesAndSynthetic(t) {
		for i, keep := range []Keep{keepModel, health.Wanted, health.WantedQueues} {
			accepted, err := fastAgainstExpfmt(kept(t, page, keep))
			if err != nil {
				t.Errorf("%s, keep %d: %v", name, i, err)
			}
			if !accepted {
				t.Errorf("%s, keep %d: the fast path declined a real page", name, i)
			}
		}
	}
}

// fastCases are pages the fast path reads (accept) or leaves to expfmt, valid or not.
// fastCase is a page and whether the fast path reads it (accept) or leaves it to expfmt.
type fastCase struct {
	name, page string
	accept     bool
}

var fastCases = []fastCase{
	{"counter gauge untyped", "# HELP a_total Adds.\n# TYPE a_total counter\na_total{name=\"q\"} 3\n# TYPE b gauge\nb 1.5\nc{x=\"y\"} -2e3\n", true},
	{"help escapes", "# HELP a Back\\\\slash, new\\nline and \\\"quotes\\\".\na 1\n", true},
	{"label escapes", "a{v=\"q\\\"uote\\\\back\\nline\"} 1\n", true},
	{"trailing comma and empty braces", "a{x=\"1\",} 1\nb{} 2\n", true},
	{"timestamps", "a 1 1700000000000\nb{x=\"1\"} 2 -5\n", true},
	{"nan inf", "a NaN\nb +Inf\nc -Inf\nd 0x1.8p1\n", false},
	{"nan inf only", "a NaN\nb +Inf\nc -Inf\n", true},
	{"histogram", "# TYPE h histogram\nh_bucket{name=\"a\",le=\"0.1\"} 1\nh_bucket{name=\"a\",le=\"+Inf\"} 2\nh_sum{name=\"a\"} 0.3\nh_count{name=\"a\"} 2\n" +
		"h_bucket{name=\"b\",le=\"+Inf\"} 0\nh_sum{name=\"b\"} 0\nh_count{name=\"b\"} 0\n", true},
	{"histogram series interleaved", "# TYPE h histogram\nh_bucket{name=\"a\",le=\"1\"} 1\nh_bucket{name=\"b\",le=\"1\"} 1\nh_count{name=\"a\"} 1\nh_bucket{le=\"1\",name=\"a\"} 5\n", true},
	{"float histogram", "# TYPE h histogram\nh_bucket{le=\"1\"} 1.5\nh_bucket{le=\"+Inf\"} 2\nh_count 2\n", true},
	{"histogram without le", "# TYPE h histogram\nh_bucket{name=\"a\"} 1\n", true},
	{"summary", "# TYPE s summary\ns{quantile=\"0.5\",x=\"1\"} 1\ns{quantile=\"0.9\",x=\"1\"} 2\ns_sum{x=\"1\"} 3\ns_count{x=\"1\"} 4\n", true},
	{"sum of a counter is its own family", "# TYPE c counter\nc 1\nc_sum 2\nc_count 3\nc_bucket 4\n", true},
	{"help after samples", "a 1\n# HELP a late\n", true},
	{"help joins its summary", "# TYPE s summary\n# HELP s_count Count.\ns_count 1\n", true},
	{"duplicate series", "a{x=\"1\"} 1\na{x=\"1\"} 2\n", true},
	{"le is a plain label of a gauge", "# TYPE g gauge\ng{le=\"1\"} 1\n", true},
	{"utf8 label value", "a{x=\"héllo ✓\"} 1\n", true},

	{"second help", "# HELP a one\n# HELP a two\na 1\n", false},
	{"type after samples", "a 1\n# TYPE a counter\n", false},
	{"unknown type", "# TYPE a widget\na 1\n", false},
	{"upper-case type", "# TYPE a COUNTER\na 1\n", false},
	{"gauge histogram", "# TYPE a gaugehistogram\na_bucket{le=\"1\"} 1\n", false},
	{"crlf", "a 1\r\n", false},
	{"crlf help", "# HELP a x\r\na 1\n", false},
	{"leading blank", " a 1\n", false},
	{"blank before brace", "a {x=\"1\"} 1\n", false},
	{"two blanks before value", "a  1\n", false},
	{"tab before value", "a\t1\n", false},
	{"no blank before value", "a{x=\"1\"}1\n", false},
	{"blank in labels", "a{x=\"1\", y=\"2\"} 1\n", false},
	{"trailing blank", "a 1 \n", false},
	{"blank after timestamp", "a 1 2 \n", false},
	{"bad timestamp", "a 1 2.5\n", false},
	{"bad value", "a x\n", false},
	{"hex float", "a 0x1p3\n", false},
	{"digit separators", "a 1_000\n", false},
	{"quoted name", "{\"a.b\"} 1\n", false},
	{"quoted name after", "\"a.b\"{x=\"1\"} 1\n", false},
	{"quoted label name", "a{\"x.y\"=\"1\"} 1\n", false},
	{"bad escape in label", "a{x=\"\\t\"} 1\n", false},
	{"bad escape in help", "# HELP a \\t\na 1\n", false},
	{"help ends in backslash", "# HELP a x\\\na 1\n", false},
	{"invalid utf8 label", "a{x=\"\xff\"} 1\n", false},
	{"reserved label", "a{__name__=\"b\"} 1\n", false},
	{"duplicate label", "a{x=\"1\",x=\"2\"} 1\n", false},
	{"negative bucket", "# TYPE h histogram\nh_bucket{le=\"1\"} -1.5\n", false},
	{"bad le", "# TYPE h histogram\nh_bucket{le=\"x\"} 1\n", false},
	{"bad quantile", "# TYPE s summary\ns{quantile=\"x\"} 1\n", false},
	{"plain comment", "# just words\na 1\n", false},
	{"help without text", "# HELP a\na 1\n", false},
	{"help with blank only", "# HELP a \na 1\n", false},
	{"no newline", "a 1", false},
	{"unclosed labels", "a{x=\"1\" 1\n", false},
	{"name then junk", "a-b 1\n", false},
}

func TestFastPathCases(t *testing.T) { runFastCases(t, fastCases) }

// runFastCases checks that the fast path accepts or declines each case as it says and that,
// either way, Parse gives exactly what expfmt gives, error text included.
func runFastCases(t *testing.T, cases []fastCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			accepted, err := fastAgainstExpfmt([]byte(tc.page))
			if err != nil {
				t.Fatal(err)
			}
			if accepted != tc.accept {
				t.Fatalf("fast path accepted = %v, want %v", accepted, tc.accept)
			}
			if err := parseEqualsExpfmt([]byte(tc.page)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// parseEqualsExpfmt checks that Parse with a keep-all predicate (which takes the fast path)
// gives expfmt's families, or fails where expfmt fails, naming the same line and message.
func parseEqualsExpfmt(page []byte) error {
	all := func(string) bool { return true }
	got, gotErr := Parse("src", bytes.NewReader(page), all)
	var nt *NotTextError
	if errors.As(gotErr, &nt) {
		// The head of a line too long to buffer showed it is no exposition; expfmt must agree.
		return notTextOnlyIfInvalid(page, gotErr)
	}
	// expfmt on the same lines the filter passes on (it drops plain comments and blank lines).
	var keptLines []byte
	if b, err := io.ReadAll(newFilter(bytes.NewReader(page), NewSelector(all))); err == nil {
		keptLines = b
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	want, wantErr := parser.TextToMetricFamilies(bytes.NewReader(keptLines))
	var empty *EmptyPageError
	if errors.As(gotErr, &empty) {
		// No sample line at all: expfmt reads no family there either.
		if wantErr != nil || len(want) != 0 {
			return fmt.Errorf("Parse finds the page without samples (%v), expfmt reads %d families (%v)", gotErr, len(want), wantErr)
		}
		return nil
	}
	switch {
	case wantErr != nil && gotErr == nil:
		return fmt.Errorf("expfmt fails (%v), Parse does not", wantErr)
	case wantErr == nil && gotErr != nil:
		return fmt.Errorf("Parse fails (%v), expfmt does not", gotErr)
	case wantErr != nil:
		var pe expfmt.ParseError
		if e, ok := wantErr.(expfmt.ParseError); ok {
			pe = e
		}
		if pe.Msg != "" && !strings.Contains(gotErr.Error(), pe.Msg) {
			return fmt.Errorf("Parse error %q does not carry expfmt's %q", gotErr, pe.Msg)
		}
		return nil
	}
	return sameFamilies(want, got.Families)
}

// FuzzFastEqualsExpfmt: whatever the fast path accepts, it reads exactly as expfmt does, and
// Parse always agrees with expfmt.
func FuzzFastEqualsExpfmt(f *testing.F) {
	for _, tc := range fastCases {
		f.Add([]byte(tc.page))
	}
	for _, tc := range seriesCases {
		f.Add([]byte(tc.page))
	}
	for _, page := range fixtures(f) {
		if len(page) < 100000 {
			f.Add(page[:min(len(page), 4096)])
		}
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		if _, err := fastAgainstExpfmt(page); err != nil {
			t.Fatalf("%q: %v", page, err)
		}
		if err := parseEqualsExpfmt(page); err != nil {
			t.Fatalf("%q: %v", page, err)
		}
	})
}
