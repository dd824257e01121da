package hostile

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"
)

// Injection is a page whose queue names attack the reader: a terminal title change (OSC 0
// ended by BEL), a screen clear (CSI 2 J), a bidi override and a C1 control, and a newline followed by GitHub Actions workflow
// commands, which start a command when they begin a line of a CI log. The worker of queue
// "stuck" has run for ten minutes, so the report has a finding that names it.
const Injection = "# TYPE workqueue_depth gauge\n" +
	"workqueue_depth{name=\"title\x1b]0;pwned\x07\"} 4\n" +
	"workqueue_depth{name=\"clear\x1b[2J\x1b[H\"} 4\n" +
	"workqueue_depth{name=\"bidi\u202eevil\u0085\"} 4\n" +
	"workqueue_depth{name=\"ci\\n::error file=x::pwned\\n::set-output name=x::pwned\"} 4\n" +
	"workqueue_depth{name=\"stuck\\n::warning::pwned\x1b[31m\"} 4\n" +
	"# TYPE workqueue_adds_total counter\n" +
	"workqueue_adds_total{name=\"stuck\\n::warning::pwned\x1b[31m\"} 12\n" +
	"# TYPE workqueue_unfinished_work_seconds gauge\n" +
	"workqueue_unfinished_work_seconds{name=\"stuck\\n::warning::pwned\x1b[31m\"} 600\n" +
	"# TYPE workqueue_longest_running_processor_seconds gauge\n" +
	"workqueue_longest_running_processor_seconds{name=\"stuck\\n::warning::pwned\x1b[31m\"} 600\n"

// Workers serves a controller-runtime page that claims 1e11 workers for a queue under
// load, with counters that grow with the clock: a capacity model that trusts the count runs
// for minutes.
func Workers(w http.ResponseWriter, _ *http.Request) {
	n := float64(time.Now().UnixMilli()) / 100 // ten adds a second
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	fmt.Fprintf(w, `# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller="big"} 1e11
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller="big"} 1e11
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller="big",result="success"} %[1]g
# TYPE workqueue_depth gauge
workqueue_depth{name="big"} 900
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="big"} %[1]g
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{name="big",le="0.1"} 0
workqueue_work_duration_seconds_bucket{name="big",le="1"} %[1]g
workqueue_work_duration_seconds_bucket{name="big",le="+Inf"} %[1]g
workqueue_work_duration_seconds_sum{name="big"} %[2]g
workqueue_work_duration_seconds_count{name="big"} %[1]g
# TYPE workqueue_queue_duration_seconds histogram
workqueue_queue_duration_seconds_bucket{name="big",le="1"} 0
workqueue_queue_duration_seconds_bucket{name="big",le="10"} %[1]g
workqueue_queue_duration_seconds_bucket{name="big",le="+Inf"} %[1]g
workqueue_queue_duration_seconds_sum{name="big"} %[3]g
workqueue_queue_duration_seconds_count{name="big"} %[1]g
`, n, n*0.5, n*5)
}

// PrometheusAPI serves the Prometheus HTTP API the way an attacker's server would:
//   - under /echo, every request is refused with 401 and a body that echoes every header it
//     was sent (Authorization included), as some proxies' error pages do;
//   - under /empty, target discovery finds one controller, and every other query answers a
//     matrix whose series hold no points.
func PrometheusAPI() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/echo/", func(w http.ResponseWriter, r *http.Request) {
		var names []string
		for k := range r.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, k := range names {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(r.Header[k], ", "))
		}
		http.Error(w, "unauthorized; you sent:\n"+b.String()+"and the query "+r.URL.RawQuery, http.StatusUnauthorized)
	})
	mux.HandleFunc("/empty/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		q := r.FormValue("query")
		if strings.HasPrefix(q, "count by") {
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[`+
				`{"metric":{"job":"ctl","instance":"10.0.0.1:8080","namespace":"ns","pod":"ctl-0"},"value":[1700000000,"1"]}]}}`)
			return
		}
		io.WriteString(w, `{"status":"success","data":{"resultType":"matrix","result":[`+
			`{"metric":{"__name__":"workqueue_depth","job":"ctl","instance":"10.0.0.1:8080","namespace":"ns","pod":"ctl-0","name":"q"},"values":[]},`+
			`{"metric":{"__name__":"workqueue_adds_total","job":"ctl","instance":"10.0.0.1:8080","namespace":"ns","pod":"ctl-0","name":"q"},"values":[]}]}}`)
	})
	return mux
}
