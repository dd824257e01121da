package parse

import (
	"strings"
	"testing"
)

// An OpenMetrics page ends at "# EOF": a sample after it must not count, whether the fast
// parser, expfmt (a kept line the fast parser declines) or the unfiltered parse reads the page,
// and a line after it is not judged as text either.
func TestStopsAtEOF(t *testing.T) {
	after := "workqueue_depth{name=\"b\"} 4\nworkqueue_adds_total{name=\"a\"} 1\n"
	pages := map[string]string{
		"fast":           "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 3\n# EOF\n" + after,
		"expfmt":         "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"}  3\n# EOF\n" + after,
		"crlf":           "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 3\n# EOF\r\n" + after,
		"no TYPE":        "workqueue_depth{name=\"a\"} 3\n  # EOF\n" + after,
		"last line":      "workqueue_depth{name=\"a\"} 3\n# EOF",
		"not text after": "workqueue_depth{name=\"a\"} 3\n# EOF\n<html>not metrics</html>\n",
	}
	for name, page := range pages {
		for i, keep := range []Keep{keepModel, nil, func(string) bool { return true }} {
			p, err := Parse("src", strings.NewReader(page), keep)
			if err != nil {
				t.Errorf("%s, keep %d: %v", name, i, err)
				continue
			}
			if len(p.Families) != 1 || len(p.Families["workqueue_depth"].GetMetric()) != 1 ||
				p.Families["workqueue_depth"].GetMetric()[0].GetGauge().GetValue()+
					p.Families["workqueue_depth"].GetMetric()[0].GetUntyped().GetValue() != 3 {
				t.Errorf("%s, keep %d: families %v, want workqueue_depth{name=\"a\"} 3 alone", name, i, p.Families)
			}
		}
	}
}

// "# EOF" must be the whole comment: "# EOFX" or "# EOF of nothing" is a plain comment.
func TestOnlyTheEOFLineEnds(t *testing.T) {
	for _, line := range []string{"# EOFX\n", "# EOF of nothing\n", "#EOF\n", "# eof\n"} {
		p, err := Parse("src", strings.NewReader(line+"workqueue_depth{name=\"a\"} 3\n"), keepModel)
		if err != nil || len(p.Families) != 1 {
			t.Errorf("%q ended the page: %v, %v", line, p, err)
		}
	}
}
