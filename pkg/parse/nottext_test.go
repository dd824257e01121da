package parse

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// binary returns n bytes of deterministic noise after prefix.
func binary(prefix string, n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return append([]byte(prefix), b...)
}

// protobufPage is the controller-runtime capture in the delimited protobuf exposition format, as
// an endpoint that ignores the Accept header sends it.
func protobufPage(t *testing.T) []byte {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(fixtures(t)["controller-runtime-1.prom"]))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeProtoDelim))
	for _, name := range sortedKeys(fams) {
		if err := enc.Encode(fams[name]); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return sorted(keys)
}

// Pages that are not text exposition stop with a NotTextError naming the line and showing its
// start, whether the families they might hold are wanted or not.
func TestNotText(t *testing.T) {
	tests := []struct {
		name  string
		page  []byte
		line  int
		start string // the start of the offending line, as the error shows it
	}{
		{"binary", binary("\x89PNG\r\n\x1a\n", 1<<20), 1, "\x89PNG\r\n"},
		{"binary without a newline", bytes.ReplaceAll(binary("\x00\x01", 1<<20), []byte("\n"), []byte("x")), 1, "\x00\x01"},
		{"html", []byte("<!DOCTYPE html>\n<html><head><title>Login</title></head></html>\n"), 1, "<!DOCTYPE html>\n"},
		{"html after blank lines and blanks", []byte("\n\n   <html>\n<body>workqueue_depth 1</body>\n"), 3, "<html>\n"},
		{"json", []byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`), 1, `{"status":"success","data":{"resultType":"vector","result":[]}}`},
		{"json with blanks", []byte(`{ "kind" : "Status", "code": 404 }` + "\n"), 1, `{ "kind" : "Status", "code": 404 }` + "\n"},
		{"indented json", []byte("{\n  \"workqueue_depth\": 1\n}\n"), 1, "{\n"},
		{"json array", []byte("[{\"name\":\"a\"}]\n"), 1, "[{\"name\":\"a\"}]\n"},
		{"health answer", []byte("ok\n"), 1, "ok\n"},
		{"health answer without newline", []byte("ok"), 1, "ok"},
		{"plain text 404", []byte("404 page not found\n"), 1, "404 page not found\n"},
		{"a sentence", []byte("Welcome to nginx!\n"), 1, "Welcome to nginx!\n"},
		{"html after valid lines", []byte("# TYPE up gauge\nup 1\n<html>\n"), 3, "<html>\n"},
		{"continuation bytes only", bytes.Repeat([]byte{0x80}, 100), 1, strings.Repeat("\x80", startShown-3)},
		{"gzip compressed twice", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), 1, "\x1f\x8b\b\x00\x00\x00\x00\x00\x00\xff"},
	}
	for _, tt := range tests {
		for i, keep := range []Keep{health.Wanted, keepModel, func(string) bool { return false }} {
			_, err := Parse("src", bytes.NewReader(tt.page), keep)
			var nt *NotTextError
			if !errors.As(err, &nt) {
				t.Errorf("%s, keep %d: error = %v, want a NotTextError", tt.name, i, err)
				continue
			}
			want := tt.start[:min(len(tt.start), startShown)]
			if nt.Line != tt.line || !strings.HasPrefix(nt.Start, want) || len(nt.Start) > startShown {
				t.Errorf("%s, keep %d: line %d starts %q, want line %d starting %q", tt.name, i, nt.Line, nt.Start, tt.line, want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "src: not Prometheus text metrics: line ") || !strings.HasSuffix(msg, "; is this the metrics port? is the path /metrics?") {
				t.Errorf("%s: message %q", tt.name, msg)
			}
		}
	}
}

func TestNotTextProtobuf(t *testing.T) {
	page := protobufPage(t)
	for _, keep := range []Keep{health.Wanted, health.WantedQueues} {
		_, err := Parse("src", bytes.NewReader(page), keep)
		var nt *NotTextError
		if !errors.As(err, &nt) || nt.Line != 1 {
			t.Fatalf("error = %v, want a NotTextError at line 1", err)
		}
	}
	// Through an HTTP body, the Content-Type names the format, and the advice is not the port.
	const protoType = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"
	_, err := Parse("src", typedReader{bytes.NewReader(page), protoType}, health.Wanted)
	if err == nil || !strings.Contains(err.Error(), `(Content-Type "`+protoType+`")`) ||
		!strings.Contains(err.Error(), "the endpoint sent the protobuf exposition format although the text format was asked for") {
		t.Fatalf("error = %v", err)
	}
}

// typedReader is a page reader that knows its Content-Type, as scrape's HTTP bodies do.
type typedReader struct {
	io.Reader
	ct string
}

func (r typedReader) ContentType() string { return r.ct }

func TestNotTextNamesTheContentType(t *testing.T) {
	_, err := Parse("page", typedReader{bytes.NewReader(binary("\x00", 4096)), "application/octet-stream"}, health.Wanted)
	want := `page: not Prometheus text metrics (Content-Type "application/octet-stream"): line 1 starts "\x00`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), `"...; is this the metrics port? is the path /metrics?`) {
		t.Fatalf("error = %v, want it to start with %q", err, want)
	}
}

// The start of the line that is shown never carries a token: an endpoint may echo the request.
func TestNotTextMasksTokens(t *testing.T) {
	const token = "nottext-test-token-0123456789"
	redact.Add(token)
	for _, page := range []string{"you sent " + token + "\n", "<p>Authorization: Bearer abc.def-ghi</p>\n"} {
		_, err := Parse("src", strings.NewReader(page), health.Wanted)
		var nt *NotTextError
		if !errors.As(err, &nt) || strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "abc.def") ||
			!strings.Contains(err.Error(), redact.Mask) {
			t.Errorf("%q: error = %v, want the token masked", page, err)
		}
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A huge binary page fails at its head: the rest is never read, with or without newlines, and
// whether lines are filtered or not.
func TestNotTextStopsEarly(t *testing.T) {
	const size = 64 << 20
	for _, tt := range []struct {
		name string
		fill byte
		keep Keep
	}{{"no newline", 0, health.Wanted}, {"no newline, keep all", 0, nil}, {"newlines", '\n', health.Wanted}} {
		r := &countingReader{r: io.LimitReader(patternReader{tt.fill}, size)}
		_, err := Parse("src", r, tt.keep)
		var nt *NotTextError
		if !errors.As(err, &nt) {
			t.Errorf("%s: error = %v, want a NotTextError", tt.name, err)
		}
		if r.n > 1<<20 {
			t.Errorf("%s: read %d bytes of a %d-byte binary page before failing", tt.name, r.n, size)
		}
	}
}

// patternReader yields the bytes 0x00 to 0xff over and over, fill in place of the newline.
type patternReader struct{ fill byte }

func (p patternReader) Read(b []byte) (int, error) {
	for i := range b {
		if b[i] = byte(i % 256); b[i] == '\n' {
			b[i] = p.fill
		}
	}
	return len(b), nil
}

// Valid pages, however unusual, read as they did: no NotTextError, and the wanted families of a
// full parse by expfmt (of the page without its byte order mark). Pages without samples are
// EmptyPageErrors (TestEmptyPage).
func TestTextPagesStayText(t *testing.T) {
	tests := []struct {
		name      string
		page      string
		families  []string // kept by keepModel
		notExpfmt bool     // expfmt's text parser does not read it (OpenMetrics)
	}{
		{"no workqueue families", "# HELP go_goroutines Goroutines.\n# TYPE go_goroutines gauge\ngo_goroutines 42\nup{job=\"x\"} 1\n", nil, false},
		{"workqueue families", "go_goroutines 42\n# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 3\n", []string{"workqueue_depth"}, false},
		{"byte order mark", "\xef\xbb\xbfworkqueue_depth{name=\"a\"} 3\nfoo 1\n", []string{"workqueue_depth"}, false},
		{"byte order mark before a comment", "\xef\xbb\xbf# HELP foo Foo.\nfoo 1\n", nil, false},
		{"leading blank lines and blanks", "\n\n  \t foo 1\n", nil, false},
		{"quoted utf8 names", "{\"my.metric\",a=\"b\"} 1\n{ \"other.metric\" } 2\n\"third.metric\"{a=\"b\"} 3\n{\"say \\\"hi\\\"\"} 4\n", nil, false},
		{"label escapes and braces in values", "foo{a=\"}{\\\"\\\\\\n\"} 1\nfoo{a=\"b\",} 2\n", nil, false},
		{"timestamps and special values", "foo 1 1700000000000\nbar -Inf\nbaz NaN 5\nqux +1e-3\n", nil, false},
		{"blanks around labels and value", "foo { a = \"b\" } 1\nbar\t2\n", nil, false},
		{"value straight after the name", "foo-1\nbar+Inf\nbaz.5\n", nil, false},
		{"long label value", "foo{a=\"" + strings.Repeat("x", 200<<10) + "\"} 1\nworkqueue_depth{name=\"a\"} 3\n", []string{"workqueue_depth"}, false},
		{"openmetrics", "# TYPE foo counter\n# UNIT foo seconds\n# HELP foo A counter.\nfoo_total 17.0 1520879607.789 # {trace_id=\"KOO5S4vxi0o\"} 0.67\n" +
			"foo_created 1520430000.123\n# TYPE bar info\nbar_info{version=\"1.0\"} 1\n# TYPE s stateset\ns{s=\"a\"} 1\n" +
			"# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 3\n# EOF\n", []string{"workqueue_depth"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.notExpfmt {
				parser := expfmt.NewTextParser(model.UTF8Validation)
				all, err := parser.TextToMetricFamilies(strings.NewReader(strings.TrimPrefix(tt.page, "\xef\xbb\xbf")))
				if err != nil {
					t.Fatalf("not a valid page: %v", err)
				}
				p, err := Parse("src", strings.NewReader(tt.page), keepModel)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]*dto.MetricFamily{}
				for n, f := range all {
					if keepModel(n) {
						want[n] = f
					}
				}
				if err := sameFamilies(want, p.Families); err != nil {
					t.Error(err)
				}
			}
			for i, keep := range []Keep{keepModel, health.Wanted, func(string) bool { return false }} {
				p, err := Parse("src", strings.NewReader(tt.page), keep)
				if err != nil {
					t.Fatalf("keep %d: %v", i, err)
				}
				if i == 0 && strings.Join(sortedKeys(p.Families), ",") != strings.Join(tt.families, ",") {
					t.Errorf("families = %v, want %v", sortedKeys(p.Families), tt.families)
				}
			}
		})
	}
}

// Every captured page, and a large generated one, reads without a NotTextError even when no
// line is kept, so that every line of it is checked.
func TestFixturesAreText(t *testing.T) {
	for name, page := range fixturesAndSynthetic(t) {
		for i, keep := range []Keep{health.WantedQueues, func(string) bool { return false }} {
			if _, err := Parse(name, bytes.NewReader(page), keep); err != nil {
				t.Errorf("%s, keep %d: %v", name, i, err)
			}
		}
	}
}

// looksLikeSample accepts what expfmt accepts, line by line, and rejects what no exposition
// starts with.
func TestLooksLikeSample(t *testing.T) {
	for _, line := range []string{"a 1\n", "a{b=\"c\"} 1\n", "{\"a.b\"} 1\n", "{a} 1\n", "\"a.b\" 1\n", "a-1\n", "a{b=\"}\"}1\n",
		"a NaN\n", "a{} 1\n", "a 1 2\n", "a 1", "{\"a\\\"b\"} 1\n", "\r\n", ":a 1\n"} {
		if !looksLikeSample([]byte(line), true, false) {
			t.Errorf("%q rejected", line)
		}
	}
	for _, line := range []string{"<html>\n", "{\"a\":1}\n", "{\n", "[1]\n", "ok\n", "ok", "1 a\n", "a b\n", "a{b=\"c\" 1\n",
		"\"unclosed\n", "a=1\n", "\x00\x01\n", "a\x00 1\n", "{\"a\" : 1}\n"} {
		if looksLikeSample([]byte(line), true, false) {
			t.Errorf("%q accepted", line)
		}
	}
	// Only the start is judged without full, and a cut line (partial) may run out anywhere.
	if !looksLikeSample([]byte("a b\n"), false, false) || looksLikeSample([]byte("a\n"), false, false) {
		t.Error("without full, a name and a blank are enough, and a name alone is not")
	}
	for _, head := range []string{"aaaa", "{\"a.b", "{ab", "\"a.b", "a{b=\"c"} {
		if !looksLikeSample([]byte(head), false, true) {
			t.Errorf("partial %q rejected", head)
		}
	}
}
