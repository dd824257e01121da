// Package hostile serves metrics endpoints that misbehave in every way a scraper meets in the
// wild: endpoints that hang, drip, never end, lie about their size, explode when gunzipped,
// serve malformed or gigantic expositions, login pages, JSON, binary bytes or the protobuf
// format instead of text, redirect loops and error statuses. The
// unit tests of the scrape and sample packages and the e2e suite (through cmd/hostile, behind
// pods) drive the plugin against them. Every mode streams: nothing large is ever allocated.
package hostile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Healthy is the small page served at /metrics: one queue named "healthy".
const Healthy = `# HELP workqueue_depth Current depth of workqueue
# TYPE workqueue_depth gauge
workqueue_depth{name="healthy"} 3
# HELP workqueue_adds_total Total number of adds handled by workqueue
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="healthy"} 42
# HELP workqueue_retries_total Total number of retries handled by workqueue
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="healthy"} 1
`

// Modes are the paths the handler serves besides /metrics, each a way to misbehave.
var Modes = []string{
	"/hang", "/drip", "/endless", "/10g", "/gzip-bomb", "/many-series",
	"/bad-escape", "/duplicate-family", "/wrong-type", "/nan", "/non-utf8", "/huge-label",
	"/login", "/html-as-text", "/json", "/binary", "/protobuf", "/redirect-loop", "/redirect-away",
	"/status/401", "/status/403", "/status/404", "/status/500", "/status/503",
}

// malformed holds the small bad pages, served as they are.
var malformed = map[string]string{
	"/bad-escape":       "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"bad\\q\"} 1\n",
	"/duplicate-family": "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"b\"} 1\n",
	"/wrong-type":       "# TYPE workqueue_depth histogram\nworkqueue_depth{name=\"a\"} 1\n",
	"/non-utf8":         "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"\xff\xfe\"} 1\n",
	"/nan": `# TYPE workqueue_depth gauge
workqueue_depth{name="nan"} NaN
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="nan"} +Inf
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="nan"} -Inf
# TYPE workqueue_unfinished_work_seconds gauge
workqueue_unfinished_work_seconds{name="nan"} NaN
# TYPE workqueue_longest_running_processor_seconds gauge
workqueue_longest_running_processor_seconds{name="nan"} +Inf
# TYPE workqueue_queue_duration_seconds histogram
workqueue_queue_duration_seconds_bucket{name="nan",le="0.1"} NaN
workqueue_queue_duration_seconds_bucket{name="nan",le="1"} +Inf
workqueue_queue_duration_seconds_bucket{name="nan",le="+Inf"} NaN
workqueue_queue_duration_seconds_sum{name="nan"} NaN
workqueue_queue_duration_seconds_count{name="nan"} NaN
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{name="nan",le="NaN"} 1
workqueue_work_duration_seconds_bucket{name="nan",le="+Inf"} +Inf
workqueue_work_duration_seconds_sum{name="nan"} +Inf
workqueue_work_duration_seconds_count{name="nan"} 1
`,
}

// Handler serves /metrics (Healthy) and every mode in Modes.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) { text(w, Healthy) })
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/hang", func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/drip", drip)
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		stream(w, r, -1, func(i int, b *bytes.Buffer) { fmt.Fprintf(b, "endless_filler_total{i=\"%d\"} 1\n", i) })
	})
	mux.HandleFunc("/10g", func(w http.ResponseWriter, r *http.Request) {
		const size = 10 << 30
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Header().Set("Content-Length", strconv.Itoa(size))
		stream(w, r, size, func(_ int, b *bytes.Buffer) { b.WriteString("# ten gigabytes of comments follow ........\n") })
	})
	mux.HandleFunc("/gzip-bomb", gzipBomb)
	mux.HandleFunc("/many-series", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		io.WriteString(w, "# TYPE workqueue_depth gauge\n")
		stream(w, r, -1, func(i int, b *bytes.Buffer) { fmt.Fprintf(b, "workqueue_depth{name=\"q%d\"} 1\n", i) })
	})
	mux.HandleFunc("/huge-label", func(w http.ResponseWriter, _ *http.Request) {
		huge := `workqueue_depth{name="huge",x="` + strings.Repeat("x", 1<<20) + `"} 1` + "\n"
		text(w, strings.Replace(Healthy, "# HELP workqueue_adds_total", huge+"# HELP workqueue_adds_total", 1))
	})
	for path, page := range malformed {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) { text(w, page) })
	}
	mux.HandleFunc("/login", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><form action=/login><input name=user><input type=password name=pw></form></body></html>\n")
	})
	// A web page served as text (a proxy or an application on the wrong port that lies).
	mux.HandleFunc("/html-as-text", func(w http.ResponseWriter, _ *http.Request) {
		text(w, "<!DOCTYPE html>\n<html><head><title>Dashboard</title></head><body>workqueue_depth</body></html>\n")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`+"\n")
	})
	mux.HandleFunc("/binary", binary)
	mux.HandleFunc("/protobuf", protobuf)
	mux.HandleFunc("/redirect-loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/redirect-loop", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/redirect-away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://login.invalid/metrics", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(r.PathValue("code"))
		if err != nil || code < 100 || code > 599 {
			code = http.StatusBadRequest
		}
		// A hostile 500 echoes what it was sent, credentials included: the scraper must not
		// print them back.
		http.Error(w, fmt.Sprintf("%s (you sent %q)", http.StatusText(code), r.Header.Get("Authorization")), code)
	})
	return mux
}

func text(w http.ResponseWriter, page string) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	io.WriteString(w, page)
}

// drip sends a valid page one byte a second.
func drip(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	flusher, _ := w.(http.Flusher)
	for i := 0; ; i++ {
		if _, err := w.Write([]byte{Healthy[i%len(Healthy)]}); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// stream writes lines made by line until size bytes were written (size < 0: forever) or the
// client goes away, in 64 KiB chunks.
func stream(w http.ResponseWriter, r *http.Request, size int64, line func(int, *bytes.Buffer)) {
	var b bytes.Buffer
	var written int64
	for i := 0; size < 0 || written < size; {
		b.Reset()
		for b.Len() < 64<<10 {
			line(i, &b)
			i++
		}
		chunk := b.Bytes()
		if size >= 0 && int64(len(chunk)) > size-written {
			chunk = chunk[:size-written]
		}
		n, err := w.Write(chunk)
		written += int64(n)
		if err != nil || r.Context().Err() != nil {
			return
		}
	}
}

// gzipBomb sends ~10 MB of gzip that inflates to 10 GB of newlines: one small gzip member,
// repeated (gzip readers read concatenated members as one stream).
func gzipBomb(w http.ResponseWriter, r *http.Request) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte("\n"), 1<<20))
	zw.Close()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	w.Header().Set("Content-Encoding", "gzip")
	for i := 0; i < 10<<10; i++ {
		if _, err := w.Write(member.Bytes()); err != nil || r.Context().Err() != nil {
			return
		}
	}
}

// binary answers 200 with a megabyte of noise (a gRPC or database port, a file download),
// generated 64 KiB at a time.
func binary(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	chunk := make([]byte, 64<<10)
	x := uint32(2463534242)
	for range 16 {
		for i := range chunk {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			chunk[i] = byte(x)
		}
		if _, err := w.Write(chunk); err != nil || r.Context().Err() != nil {
			return
		}
	}
}

// protobuf answers with Healthy in the delimited protobuf exposition format, whatever the
// Accept header asked for.
func protobuf(w http.ResponseWriter, _ *http.Request) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(Healthy))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	format := expfmt.NewFormat(expfmt.TypeProtoDelim)
	w.Header().Set("Content-Type", string(format))
	enc := expfmt.NewEncoder(w, format)
	for _, name := range []string{"workqueue_adds_total", "workqueue_depth", "workqueue_retries_total"} {
		if err := enc.Encode(fams[name]); err != nil {
			return
		}
	}
}
