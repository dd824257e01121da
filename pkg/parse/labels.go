package parse

import "github.com/prometheus/common/model"

// labelScanner reads the label set `{name="value",...}` of a sample line one label at a time.
// fastParser.sample and reducer.sample both read their labels through it: the reducer must
// accept exactly the lines the fast parser accepts, or a reduced family would be read
// otherwise than the whole one, so the grammar lives here once. What a label means (le,
// quantile, a name given twice) is the caller's.
//
// It is a value on the caller's stack, not a callback, so that the hot path stays free of
// allocations and indirect calls.
type labelScanner struct {
	rest []byte // the line not read yet; after the label set once next has returned false
	// lineLen is the line's length, so that start can be told as an offset into it.
	lineLen int
	open    bool // inside the braces
	bad     bool // the set is not in the form the fast grammar reads

	// The label next returned: its name, its value (unescaped; it aliases the line when it
	// has no escapes) and where it starts in the line.
	name, value []byte
	start       int
}

// scanLabels starts reading the labels of line, whose metric name is n bytes long (n <
// len(line)). A line without braces has no labels.
func scanLabels(line []byte, n int) labelScanner {
	s := labelScanner{rest: line[n:], lineLen: len(line)}
	if s.rest[0] == '{' {
		s.rest, s.open = s.rest[1:], true
	}
	return s
}

// next reads the next label into s.name, s.value and s.start. It returns false at the end of
// the set, and when the set is not in the fast grammar, which s.bad then says.
func (s *labelScanner) next() bool {
	if !s.open {
		return false
	}
	rest := s.rest
	if len(rest) > 0 && rest[0] == '}' {
		s.rest, s.open = rest[1:], false
		return false
	}
	start := s.lineLen - len(rest)
	ln := labelNameLen(rest)
	if ln == 0 || ln+1 >= len(rest) || rest[ln] != '=' || rest[ln+1] != '"' {
		return s.fail()
	}
	name := rest[:ln]
	value, used, ok := labelValue(rest[ln+2:])
	if !ok {
		return s.fail()
	}
	if string(name) == model.MetricNameLabel {
		return s.fail() // reserved: expfmt's error
	}
	rest = rest[ln+2+used:]
	switch {
	case len(rest) > 0 && rest[0] == ',':
		rest = rest[1:]
	case len(rest) > 0 && rest[0] == '}':
		// the end of the set: the next call reads it
	default:
		return s.fail()
	}
	s.rest, s.name, s.value, s.start = rest, name, value, start
	return true
}

func (s *labelScanner) fail() bool {
	s.bad, s.open = true, false
	return false
}
