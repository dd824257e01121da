package logs

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// entry is one log line decoded: when, how severe, its message and its key/value fields
// (objects {"name","namespace"} as "namespace/name"; the fields past maxFields dropped).
type entry struct {
	time   time.Time
	level  string // "error", "info", "warning", "fatal", "debug" or ""
	msg    string
	fields map[string]string
	// structured says the line had a message and fields (JSON, klog's structured text,
	// logfmt); a plain line is its message only, and may continue a stack trace.
	structured bool
	// source is klog's file of the call ("replica_set.go"), "" for other shapes.
	source string
}

// maxFields bounds the fields kept of one line.
const maxFields = 64

// prefixTime takes the kubelet's timestamp (kubectl logs --timestamps) or a CRI-format header
// ("2026-11-26T11:00:00.1Z stdout F ") off a line. partial says the CRI line continues in the
// next record ("P").
func prefixTime(line string) (t time.Time, rest string, partial bool) {
	sp := strings.IndexByte(line, ' ')
	if sp < 20 || sp > 40 || line[4] != '-' || line[10] != 'T' {
		return time.Time{}, line, false
	}
	ts, err := time.Parse(time.RFC3339Nano, line[:sp])
	if err != nil {
		return time.Time{}, line, false
	}
	rest = line[sp+1:]
	for _, stream := range []string{"stdout ", "stderr "} {
		if tail, ok := strings.CutPrefix(rest, stream); ok && len(tail) >= 2 && (tail[0] == 'F' || tail[0] == 'P') && tail[1] == ' ' {
			return ts, tail[2:], tail[0] == 'P'
		} else if ok && (tail == "F" || tail == "P") {
			return ts, "", tail == "P"
		}
	}
	return ts, rest, false
}

// decode reads one line's content in whichever shape it has; ref gives a klog header the year
// it leaves out.
func decode(s string, ref time.Time) entry {
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "{") {
		if e, ok := decodeJSON(trimmed); ok {
			return e
		}
	}
	if e, ok := decodeKlog(s, ref); ok {
		return e
	}
	if e, ok := decodeConsole(s); ok {
		return e
	}
	if e, ok := decodeLogfmt(trimmed); ok {
		return e
	}
	return entry{msg: s}
}

// decodeJSON reads zap's (controller-runtime's) and other JSON lines: level, ts/time, msg/message.
func decodeJSON(s string) (entry, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return entry{}, false
	}
	e := entry{fields: map[string]string{}, structured: true}
	for k, raw := range m {
		v := jsonValue(raw)
		switch strings.ToLower(k) {
		case "level", "lvl", "severity":
			e.level = normLevel(v)
			continue
		case "ts", "time", "timestamp", "@timestamp":
			if t, ok := parseTime(v); ok {
				e.time = t
			}
			continue
		case "msg", "message":
			e.msg = v
			continue
		}
		if len(e.fields) < maxFields {
			e.fields[k] = v
		}
	}
	return e, true
}

// jsonValue is a JSON value as text: a string unquoted, an object with a name as
// "namespace/name", anything else as written.
func jsonValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if o, ok := objectRef(raw); ok {
		return o
	}
	return string(raw)
}

// objectRef reads {"name":..,"namespace":..} as "namespace/name".
func objectRef(raw []byte) (string, bool) {
	var ref struct {
		Name      *string `json:"name"`
		Namespace string  `json:"namespace"`
	}
	if json.Unmarshal(raw, &ref) != nil || ref.Name == nil || *ref.Name == "" {
		return "", false
	}
	if ref.Namespace == "" {
		return *ref.Name, true
	}
	return ref.Namespace + "/" + *ref.Name, true
}

// klogHeader is klog's "E1126 11:00:00.123456    1 controller.go:316] " header.
var klogHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{1,9})\s+\d+ ([^\]\s:]+)(?::\d+)?\] ?`)
})

// decodeKlog reads klog's text lines: a structured message ("msg" key="value" ...) or a plain one.
func decodeKlog(s string, ref time.Time) (entry, bool) {
	h := klogHeader().FindStringSubmatchIndex(s)
	if h == nil {
		return entry{}, false
	}
	e := entry{level: normLevel(s[:1]), source: s[h[16]:h[17]]}
	num := func(i int) int { n, _ := strconv.Atoi(s[h[2*i]:h[2*i+1]]); return n }
	if !ref.IsZero() {
		frac := s[h[14]:h[15]]
		ns, _ := strconv.Atoi((frac + "000000000")[:9])
		t := time.Date(ref.Year(), time.Month(num(2)), num(3), num(4), num(5), num(6), ns, time.UTC)
		if t.After(ref.Add(24 * time.Hour)) { // December's lines read in January
			t = t.AddDate(-1, 0, 0)
		}
		e.time = t
	}
	rest := s[h[1]:]
	if strings.HasPrefix(rest, `"`) {
		if msg, n, ok := quoted(rest); ok {
			e.msg, e.structured = msg, true
			e.fields = pairs(rest[n:])
			return e, true
		}
	}
	e.msg = rest
	return e, true
}

// decodeConsole reads zap's console encoder, kubebuilder's default (zap.Options{Development:
// true}): TIME, LEVEL, the logger's name and the caller when set, the message, then the
// fields as one JSON object, separated by tabs.
func decodeConsole(s string) (entry, bool) {
	if strings.IndexByte(s, '\t') < 1 { // no field before a tab: not this shape (a stack frame's file line starts with one)
		return entry{}, false
	}
	parts := strings.Split(s, "\t")
	if len(parts) < 3 {
		return entry{}, false
	}
	t, ok := parseTime(parts[0])
	level := normLevel(stripColour(parts[1]))
	if !ok || level == "" {
		return entry{}, false
	}
	e := entry{time: t, level: level, fields: map[string]string{}, structured: true}
	rest := parts[2:]
	if last := strings.TrimSpace(rest[len(rest)-1]); len(rest) > 1 && strings.HasPrefix(last, "{") {
		if j, ok := decodeJSON(last); ok {
			e.fields = j.fields
		}
		rest = rest[:len(rest)-1]
	}
	e.msg = rest[len(rest)-1]
	for _, p := range rest[:len(rest)-1] { // the logger's name, the caller ("file.go:42")
		if strings.Contains(p, ".go:") {
			e.source, _, _ = strings.Cut(p[strings.LastIndexByte(p, '/')+1:], ":")
		} else if e.fields["logger"] == "" {
			e.fields["logger"] = p
		}
	}
	return e, true
}

// stripColour takes the terminal colour codes off zap's coloured level ("\x1b[31mERROR\x1b[0m").
func stripColour(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}

// decodeLogfmt reads key=value lines that carry a msg (logfmt, go-kit, logrus's text, slog's
// text), and logr's funcr, whose keys are quoted ("msg"="Reconciler error").
func decodeLogfmt(s string) (entry, bool) {
	if !strings.Contains(s, "msg=") && !strings.Contains(s, "level=") && !strings.Contains(s, `"msg"=`) {
		return entry{}, false
	}
	f := pairs(s)
	msg, ok := f["msg"]
	if !ok {
		if msg, ok = f["message"]; !ok {
			return entry{}, false
		}
	}
	e := entry{msg: msg, fields: f, structured: true}
	for _, k := range []string{"msg", "message"} {
		delete(f, k)
	}
	for _, k := range []string{"level", "lvl"} {
		if v, ok := f[k]; ok {
			e.level = normLevel(v)
			delete(f, k)
		}
	}
	for _, k := range []string{"ts", "time", "t"} {
		if v, ok := f[k]; ok {
			if t, ok := parseTime(v); ok {
				e.time = t
			}
			delete(f, k)
		}
	}
	return e, true
}

// pairs reads key=value pairs: values bare, Go-quoted ("..."), or JSON objects ({...}, an
// object reference read as "namespace/name"). It stops at what it cannot read.
func pairs(s string) map[string]string {
	out := map[string]string{}
	for len(out) < maxFields {
		s = strings.TrimLeft(s, " \t")
		var key, v string
		if strings.HasPrefix(s, `"`) { // funcr: "key"=value
			k, n, ok := quoted(s)
			if !ok || !strings.HasPrefix(s[n:], "=") || k == "" {
				return out
			}
			key, v = k, s[n+1:]
		} else {
			eq := strings.IndexByte(s, '=')
			if eq <= 0 || strings.ContainsAny(s[:eq], " \t\"") {
				return out
			}
			key, v = s[:eq], s[eq+1:]
		}
		switch {
		case strings.HasPrefix(v, `"`):
			val, n, ok := quoted(v)
			if !ok {
				return out
			}
			out[key], s = val, v[n:]
		case strings.HasPrefix(v, "{") || strings.HasPrefix(v, "["):
			n := balanced(v)
			if n < 0 {
				return out
			}
			raw := v[:n]
			if o, ok := objectRef([]byte(raw)); ok {
				out[key] = o
			} else if o, ok := funcrRef(raw); ok {
				out[key] = o
			} else {
				out[key] = raw
			}
			s = v[n:]
		default:
			end := strings.IndexAny(v, " \t")
			if end < 0 {
				end = len(v)
			}
			out[key], s = v[:end], v[end:]
		}
	}
	return out
}

// funcrRef reads funcr's rendering of an object reference, {"name"="x" "namespace"="y"}, as
// "namespace/name".
func funcrRef(raw string) (string, bool) {
	f := pairs(strings.TrimSuffix(strings.TrimPrefix(raw, "{"), "}"))
	if f["name"] == "" {
		return "", false
	}
	if f["namespace"] == "" {
		return f["name"], true
	}
	return f["namespace"] + "/" + f["name"], true
}

// quoted reads the Go-quoted string at the start of s: its value and length.
func quoted(s string) (string, int, bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			v, err := strconv.Unquote(s[:i+1])
			if err != nil {
				v = s[1:i]
			}
			return v, i + 1, true
		}
	}
	return "", 0, false
}

// balanced is the length of the JSON object or array at the start of s; -1 when it does not end.
func balanced(s string) int {
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// normLevel names a level as this package compares them.
func normLevel(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "e", "error", "err", "dpanic", "panic":
		return "error"
	case "w", "warn", "warning":
		return "warning"
	case "f", "fatal", "crit", "critical":
		return "fatal"
	case "i", "info", "notice":
		return "info"
	case "debug", "trace":
		return "debug"
	}
	return ""
}

// timeLayouts are the text timestamps of the shapes read.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999"} // the last: funcr's, with no zone (UTC, as pods run)

// parseTime reads a text timestamp, or seconds since the epoch (zap's default "ts").
func parseTime(v string) (time.Time, bool) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f <= 0 || f > 1e11 || math.IsNaN(f) {
			return time.Time{}, false
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// field is the first of keys the entry has, "" without.
func (e entry) field(keys ...string) string {
	for _, k := range keys {
		if v, ok := e.fields[k]; ok && v != "" {
			return v
		}
	}
	return ""
}

// String is for tests' messages.
func (e entry) String() string {
	return fmt.Sprintf("%s %s %q %v", e.time.Format(time.RFC3339), e.level, e.msg, e.fields)
}
