package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// benchLine matches one result line of `go test -bench`: name (with the -GOMAXPROCS suffix),
// iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// result is every run of one benchmark: unit -> values.
type result struct {
	group, name string
	values      map[string][]float64
	order       int
}

// parseBench reads `go test -bench` output. A benchmark named GROUP/CASE belongs to GROUP;
// the case whose name starts with "baseline=" is the baseline of its group.
func parseBench(r io.Reader) ([]*result, error) {
	byName := map[string]*result{}
	var out []*result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		full := m[1]
		res := byName[full]
		if res == nil {
			group, name := full, ""
			if i := strings.LastIndex(full, "/"); i >= 0 {
				group, name = full[:i], full[i+1:]
			}
			res = &result{group: group, name: name, values: map[string][]float64{}, order: len(out)}
			byName[full] = res
			out = append(out, res)
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("benchmark %s: value %q: %v", full, f[i], err)
			}
			res.values[f[i+1]] = append(res.values[f[i+1]], v)
		}
	}
	return out, sc.Err()
}

func (r *result) median(unit string) (float64, bool) {
	v := r.values[unit]
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

func (r *result) runs() int { return len(r.values["ns/op"]) }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// baselineOf returns the baseline case of r's group, or nil.
func baselineOf(all []*result, r *result) *result {
	for _, b := range all {
		if b.group == r.group && strings.HasPrefix(b.name, "baseline=") {
			return b
		}
	}
	return nil
}

// ratio is the median of base's unit over the median of r's unit (speed-up for ns/op).
func ratio(base, r *result, unit string) (float64, bool) {
	if base == nil {
		return 0, false
	}
	b, ok1 := base.median(unit)
	v, ok2 := r.median(unit)
	if !ok1 || !ok2 || v == 0 {
		return 0, false
	}
	return b / v, true
}

// find returns the result named group/name.
func find(all []*result, group, name string) *result {
	for _, r := range all {
		if r.group == group && r.name == name {
			return r
		}
	}
	return nil
}

// benchTable renders the results as a markdown table, grouped, with ratios to each group's
// baseline: speed-up (baseline time / time) and allocated bytes (bytes / baseline bytes).
func benchTable(all []*result) string {
	var b strings.Builder
	b.WriteString("| benchmark | case | runs | median time/op | MB/s | B/op | allocs/op | speed-up vs baseline | bytes vs baseline | other |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	sorted := append([]*result(nil), all...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].order < sorted[j].order })
	for _, r := range sorted {
		base := baselineOf(all, r)
		ns, _ := r.median("ns/op")
		cell := func(unit string, format func(float64) string) string {
			if v, ok := r.median(unit); ok {
				return format(v)
			}
			return "-"
		}
		speed, bytes := "-", "-"
		if s, ok := ratio(base, r, "ns/op"); ok {
			speed = fmt.Sprintf("%.2fx", s)
		}
		if s, ok := ratio(base, r, "B/op"); ok && s != 0 {
			bytes = fmt.Sprintf("1/%.1f", s)
			if s < 1 {
				bytes = fmt.Sprintf("%.2fx", 1/s)
			}
		}
		var other []string
		for unit := range r.values {
			switch unit {
			case "ns/op", "MB/s", "B/op", "allocs/op":
				continue
			}
			v, _ := r.median(unit)
			other = append(other, fmt.Sprintf("%s %s", human(v), unit))
		}
		sort.Strings(other)
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.group, r.name, r.runs(), duration(ns),
			cell("MB/s", func(v float64) string { return fmt.Sprintf("%.0f", v) }),
			cell("B/op", human), cell("allocs/op", human), speed, bytes, strings.Join(other, ", "))
	}
	return b.String()
}

// unit formats values from from upwards: divided by size, with format.
type unit struct {
	from, size float64
	format     string
}

// scaled formats v with the first of units that v reaches (the last one always fits).
func scaled(v float64, units []unit) string {
	for _, u := range units {
		if v >= u.from {
			return fmt.Sprintf(u.format, v/u.size)
		}
	}
	u := units[len(units)-1]
	return fmt.Sprintf(u.format, v/u.size)
}

// duration formats nanoseconds.
func duration(ns float64) string {
	return scaled(ns, []unit{{1e9, 1e9, "%.2f s"}, {1e6, 1e6, "%.2f ms"}, {1e3, 1e3, "%.1f µs"}, {1, 1, "%.0f ns"}})
}

// human formats a count with a k/M/G suffix, and a figure under 10 (CPU milliseconds) with two
// significant digits.
func human(v float64) string {
	return scaled(v, []unit{{1e9, 1e9, "%.2fG"}, {1e6, 1e6, "%.2fM"}, {1e4, 1e3, "%.1fk"}, {10, 1, "%.0f"}, {0, 1, "%.2g"}})
}
