package promsource

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// fastSeries reads one series of a result, raw being its JSON (whole and valid: the decoder
// has read it), without reflection, when it has the shape Prometheus gives: an object of
// "metric" (an object of plain strings), then "value" or "values" (of [time, "value"] pairs),
// each once, in lower case, strings without escapes and ASCII only. Anything else (a native
// histogram, escapes, other keys, null) is left to the general path (ok false), which gives
// what encoding/json gives: this path only ever answers as that one would, faster. Label names
// and values are shared through in, a series' labels repeating those of the others.
func fastSeries(raw []byte, resultType string, in *interner) (s Series, ok bool) {
	p := scanner{b: raw}
	if !p.byte('{') {
		return Series{}, false
	}
	var haveMetric, haveValue, haveValues bool
	for first := true; ; first = false {
		p.space()
		if p.peek() == '}' && first {
			break
		}
		if !first {
			if p.peek() == '}' {
				break
			}
			if !p.byte(',') {
				return Series{}, false
			}
		}
		key, ok := p.plainString()
		if !ok || !p.byte(':') {
			return Series{}, false
		}
		switch string(key) {
		case "metric":
			if haveMetric {
				return Series{}, false
			}
			haveMetric = true
			if s.Labels, s.Key, ok = p.labels(in); !ok {
				return Series{}, false
			}
		case "value":
			if haveValue || haveValues || resultType != vector {
				return Series{}, false
			}
			haveValue = true
			pt, ok := p.point()
			if !ok {
				return Series{}, false
			}
			s.Points = []Point{pt}
		case "values":
			if haveValues || haveValue || resultType != matrix {
				return Series{}, false
			}
			haveValues = true
			if s.Points, ok = p.points(); !ok {
				return Series{}, false
			}
		default:
			return Series{}, false
		}
	}
	p.off++ // the closing brace
	p.space()
	if p.off != len(p.b) || !haveMetric || !haveValue && !haveValues {
		return Series{}, false
	}
	return s, true
}

// interner shares the strings of the labels of an answer's series, and the scratch space their
// keys are built in.
type interner struct {
	strs map[string]string
	key  []byte
}

func newInterner() *interner { return &interner{strs: map[string]string{}} }

func (in *interner) get(b []byte) string {
	if s, ok := in.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	in.strs[s] = s
	return s
}

// scanner walks valid JSON.
type scanner struct {
	b   []byte
	off int
}

func (p *scanner) space() {
	for p.off < len(p.b) {
		switch p.b[p.off] {
		case ' ', '\t', '\n', '\r':
			p.off++
		default:
			return
		}
	}
}

func (p *scanner) peek() byte {
	if p.off < len(p.b) {
		return p.b[p.off]
	}
	return 0
}

// byte reads c after any space.
func (p *scanner) byte(c byte) bool {
	p.space()
	if p.peek() != c {
		return false
	}
	p.off++
	return true
}

// plainString reads a string of printable ASCII without escapes, and returns its content.
func (p *scanner) plainString() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.off
	for p.off < len(p.b) {
		c := p.b[p.off]
		switch {
		case c == '"':
			p.off++
			return p.b[start : p.off-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		p.off++
	}
	return nil, false
}

// labels reads an object of plain strings; a name given twice keeps its last value, as
// encoding/json does. When the names come in strictly increasing order (Prometheus and Thanos
// give them sorted), key is the series' key (see Series.Key), built as they are read; "" when
// they do not.
func (p *scanner) labels(in *interner) (m map[string]string, key string, ok bool) {
	if !p.byte('{') {
		return nil, "", false
	}
	m = make(map[string]string, 8) // a small map: labels of a series are about that many
	if p.byte('}') {
		return m, "", true
	}
	in.key = in.key[:0]
	sorted := true
	var prev []byte
	for first := true; ; first = false {
		k, ok := p.plainString()
		if !ok || !p.byte(':') {
			return nil, "", false
		}
		v, ok := p.plainString()
		if !ok {
			return nil, "", false
		}
		if sorted = sorted && (first || string(k) > string(prev)); sorted {
			in.key = append(append(append(append(in.key, k...), '='), v...), '\xff')
		}
		prev = k
		m[in.get(k)] = in.get(v)
		if p.byte('}') {
			if sorted {
				key = string(in.key)
			}
			return m, key, true
		}
		if !p.byte(',') {
			return nil, "", false
		}
	}
}

// point reads [time, "value"]: a number and a plain string, nothing else.
func (p *scanner) point() (Point, bool) {
	if !p.byte('[') {
		return Point{}, false
	}
	p.space()
	start := p.off
	for p.off < len(p.b) && isNumberByte(p.b[p.off]) {
		p.off++
	}
	ts, err := strconv.ParseFloat(string(p.b[start:p.off]), 64)
	if err != nil || !p.byte(',') {
		return Point{}, false
	}
	vs, ok := p.plainString()
	if !ok || !p.byte(']') {
		return Point{}, false
	}
	v, err := strconv.ParseFloat(string(vs), 64)
	if err != nil {
		return Point{}, false
	}
	return Point{T: unixTime(ts), V: v}, true
}

// points reads a list of points, which must be in time order (the general path sorts them).
func (p *scanner) points() ([]Point, bool) {
	if !p.byte('[') {
		return nil, false
	}
	out := []Point{}
	if p.byte(']') {
		return out, true
	}
	for {
		pt, ok := p.point()
		if !ok || len(out) > 0 && pt.T.Before(out[len(out)-1].T) {
			return nil, false
		}
		out = append(out, pt)
		if p.byte(']') {
			return out, true
		}
		if !p.byte(',') {
			return nil, false
		}
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// readSeries reads the nth series of a result: by fastSeries, or by encoding/json.
func readSeries(raw []byte, resultType string, in *interner, n int) (Series, error) {
	if s, ok := fastSeries(raw, resultType, in); ok {
		return s, nil
	}
	var rs rawSeries
	if err := json.Unmarshal(raw, &rs); err != nil {
		return Series{}, fmt.Errorf("decoding the answer's series %d: %w", n, err)
	}
	return convert(rs, resultType)
}
