package parse

import (
	"bytes"

	dto "github.com/prometheus/client_model/go"
)

// reduced hands a kept line of a reduced family to its reducer, and reports whether it did.
//
// A family is read reduced from its TYPE line on, when that line is the plain
// "# TYPE name histogram" and comes before any of the family's samples: its sample lines then
// all belong to it, and to nothing else, as expfmt reads the page. Otherwise (no TYPE line, a
// TYPE line of another form or type, samples before it) the family is read whole, as it is
// without a Reduce, by the parser. The TYPE line itself always goes to the parser, which makes
// the family and finds what is wrong with a second one.
func (f *filter) reduced(line []byte, comment bool) bool {
	body := bytes.TrimSuffix(line, []byte("\n"))
	if comment {
		family, plain := f.sel.reducedType(body)
		switch {
		case family == "":
		case plain && !f.spoiled[family] && f.reducers[family] == nil:
			if f.reducers == nil {
				f.reducers = map[string]*reducer{}
			}
			f.reducers[family] = newReducer(family, f.sel.reduce[family])
		case f.reducers[family] == nil:
			f.spoil(family)
		}
		return false
	}
	// wanted left the line's name in lastName; consecutive lines mostly share it.
	if f.reducedFor == nil || !bytes.Equal(f.lastName, f.reducedFor) {
		f.reducedFor = append(f.reducedFor[:0], f.lastName...)
		f.reducedFamily = f.sel.reducedNames[string(f.lastName)]
	}
	family := f.reducedFamily
	if family == "" {
		return false
	}
	if r := f.reducers[family]; r != nil {
		r.read(body, f.line)
		return true
	}
	f.spoil(family)
	return false
}

func (f *filter) spoil(family string) {
	if f.spoiled == nil {
		f.spoiled = map[string]bool{}
	}
	f.spoiled[family] = true
}

// reducedType returns the reduced family a TYPE line names ("" for none), and whether the line
// is exactly "# TYPE family histogram".
func (s *Selector) reducedType(line []byte) (family string, plain bool) {
	rest := trimBlanks(bytes.TrimPrefix(trimBlanks(line), []byte("#")))
	rest, ok := bytes.CutPrefix(rest, []byte("TYPE"))
	if !ok {
		return "", false
	}
	name := metricName(trimBlanks(rest))
	if _, ok := s.reduce[string(name)]; !ok {
		return "", false
	}
	family = string(name)
	return family, string(line) == "# TYPE "+family+" histogram"
}

// reducerError is the first line a reducer found invalid; nil when none did.
func (f *filter) reducerError() *lineError {
	var first *lineError
	for _, r := range f.reducers {
		if r.err != nil && (first == nil || r.err.line < first.line) {
			first = r.err
		}
	}
	return first
}

// addReduced adds to fams each family a reducer read samples of, even when it left them all
// out: the page has the family.
func (f *filter) addReduced(fams map[string]*dto.MetricFamily) {
	for family, r := range f.reducers {
		if r.lines > 0 {
			fams[family] = r.result()
		}
	}
}
