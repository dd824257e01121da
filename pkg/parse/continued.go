package parse

import (
	"bytes"
	"math"
)

// seriesText is the text of a summary or histogram line whose last label was its le (or
// quantile) label, which the lines after it repeat when they continue the same series (see
// prevSeries). The fast parser and the reducer both keep one and find the lines that continue
// it through next, so that they agree on which lines those are: were they to differ, a reduced
// family would no longer read as the whole one.
type seriesText struct {
	prefix []byte // the line up to its last label, which was le or quantile
	labels int    // where the other labels start in prefix, after the name and its {
}

// keep makes line the text the next lines may continue: start is where its last label starts,
// n the length of its metric name.
func (t *seriesText) keep(line []byte, start, n int) {
	t.prefix = append(t.prefix[:0], line[:start]...)
	t.labels = n + 1
}

// continuedLine is a line that continues the series, as next reads it.
type continuedLine struct {
	// name is the metric name of a _sum or _count line; nil on a bucket or quantile line.
	name           []byte
	isCount, isSum bool
	bound          float64 // the le or quantile of a bucket or quantile line; NaN otherwise
	rest           []byte  // the text after the labels: ` value [timestamp]`, not checked yet
}

// next reads line when it continues the series of family: either the same text up to the
// label special (le or quantile), which is its last, or the family's name with the suffix
// _sum or _count and the same labels, special left out, in the same text. ok is false when
// it does not, or when its label special is not one the fast grammar reads; the line is then
// read in full.
func (t *seriesText) next(line []byte, family, special string) (c continuedLine, ok bool) {
	if !bytes.HasPrefix(line, t.prefix) {
		return t.totals(line, family)
	}
	rest := line[len(t.prefix):]
	if len(rest) < len(special)+2 || string(rest[:len(special)]) != special ||
		rest[len(special)] != '=' || rest[len(special)+1] != '"' {
		return c, false
	}
	text, used, ok := labelValue(rest[len(special)+2:])
	if !ok {
		return c, false
	}
	rest = rest[len(special)+2+used:]
	if len(rest) == 0 || rest[0] != '}' {
		return c, false
	}
	bound, err := parseFloat(text)
	if err != nil {
		return c, false
	}
	return continuedLine{bound: bound, rest: rest[1:]}, true
}

// totals reads line when it is the _sum or _count line of the series (see next).
func (t *seriesText) totals(line []byte, family string) (c continuedLine, ok bool) {
	if !bytes.HasPrefix(line, []byte(family)) {
		return c, false
	}
	rest := line[len(family):]
	switch {
	case bytes.HasPrefix(rest, []byte("_sum")):
		c.isSum, rest = true, rest[len("_sum"):]
	case bytes.HasPrefix(rest, []byte("_count")):
		c.isCount, rest = true, rest[len("_count"):]
	default:
		return c, false
	}
	c.name = line[:len(line)-len(rest)]
	labels := t.prefix[t.labels:]
	if len(labels) > 0 {
		labels = labels[:len(labels)-1] // the comma before le or quantile
		if len(rest) < len(labels)+2 || rest[0] != '{' || !bytes.Equal(rest[1:len(labels)+1], labels) ||
			rest[len(labels)+1] != '}' {
			return c, false
		}
		rest = rest[len(labels)+2:]
	} else if len(rest) == 0 || rest[0] != ' ' {
		return c, false
	}
	c.bound, c.rest = math.NaN(), rest
	return c, true
}
