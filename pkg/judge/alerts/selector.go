package alerts

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Matcher is one label matcher of a selector: name, operator (=, !=, =~, !~) and value.
type Matcher struct {
	Name, Op, Value string
}

// String writes the matcher as PromQL does: namespace="x".
func (m Matcher) String() string { return m.Name + m.Op + strconv.Quote(m.Value) }

var labelName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`) })

// ParseSelector reads label matchers written as in PromQL, with or without the braces:
// `{namespace="x", job=~"op-.*"}`. Values are double-, single- or back-quoted strings; regular
// expressions must compile (Prometheus anchors them, RE2 syntax). The metric name
// (__name__) cannot be matched: the matchers go on every series of the rules.
func ParseSelector(s string) ([]Matcher, error) {
	in := strings.TrimSpace(s)
	if strings.HasPrefix(in, "{") {
		if !strings.HasSuffix(in, "}") {
			return nil, fmt.Errorf("matchers %q: no closing }", s)
		}
		in = strings.TrimSpace(in[1 : len(in)-1])
	}
	var out []Matcher
	for in != "" {
		m, rest, err := parseMatcher(in)
		if err != nil {
			return nil, fmt.Errorf("matchers %q: %w", s, err)
		}
		out = append(out, m)
		rest = strings.TrimSpace(rest)
		if rest == "" {
			break
		}
		if rest[0] != ',' {
			return nil, fmt.Errorf("matchers %q: expected , before %q", s, rest)
		}
		in = strings.TrimSpace(rest[1:])
	}
	return out, nil
}

func parseMatcher(in string) (Matcher, string, error) {
	i := strings.IndexAny(in, "=!")
	if i < 0 {
		return Matcher{}, "", fmt.Errorf("%q is no matcher: use name=\"value\" (or !=, =~, !~)", in)
	}
	m := Matcher{Name: strings.TrimSpace(in[:i])}
	if !labelName().MatchString(m.Name) {
		return Matcher{}, "", fmt.Errorf("%q is no label name", m.Name)
	}
	if m.Name == "__name__" {
		return Matcher{}, "", fmt.Errorf("__name__ cannot be matched: the matchers go on every series")
	}
	rest := in[i:]
	for _, op := range []string{"=~", "!~", "!=", "="} {
		if strings.HasPrefix(rest, op) {
			m.Op, rest = op, strings.TrimSpace(rest[len(op):])
			break
		}
	}
	if m.Op == "" {
		return Matcher{}, "", fmt.Errorf("after %s: expected =, !=, =~ or !~", m.Name)
	}
	v, rest, err := quoted(rest)
	if err != nil {
		return Matcher{}, "", fmt.Errorf("value of %s: %w", m.Name, err)
	}
	m.Value = v
	if m.Op == "=~" || m.Op == "!~" {
		if _, err := regexp.Compile("^(?:" + v + ")$"); err != nil {
			return Matcher{}, "", fmt.Errorf("regular expression of %s: %w", m.Name, err)
		}
	}
	return m, rest, nil
}

// quoted reads one quoted string at the start of s and returns it unquoted and what follows.
func quoted(s string) (string, string, error) {
	if s == "" || !strings.ContainsRune("\"'`", rune(s[0])) {
		return "", "", fmt.Errorf("expected a quoted string, got %q", s)
	}
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q != '`':
			i++
		case s[i] == q:
			lit := s[:i+1]
			if q == '\'' { // PromQL's single quotes: the same escapes as double ones
				lit = `"` + strings.ReplaceAll(strings.ReplaceAll(lit[1:i], `\'`, `'`), `"`, `\"`) + `"`
			}
			v, err := strconv.Unquote(lit)
			if err != nil {
				return "", "", fmt.Errorf("%s: %w", s[:i+1], err)
			}
			return v, s[i+1:], nil
		}
	}
	return "", "", fmt.Errorf("unterminated string %s", s)
}
