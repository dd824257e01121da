package alerts

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"

// notExportedWhy says, per check with no alert, why the rules cannot judge it. A new check in
// the catalog gets an alert in checks.go or a line here (a test holds them to the catalog).
var notExportedWhy = map[string]string{
	"spec-latency-slo": "the latency comes from a watch of the objects, and no series carries it: " +
		"kube-state-metrics has the generation of built-in kinds only, and no times",
	"no-workqueue-metrics": "which targets are controllers is the discovery's knowledge (pods, monitors, names); " +
		"over Prometheus every target without workqueue series, a database or a web server, would fire",
	"metric-type": "the declared TYPE of a family is metadata, not a series PromQL can read",
	"under-provisioned": "the number of workers comes from a queueing model (Erlang C, searched over the " +
		"number of workers) and the objects view, which PromQL cannot compute; workers-saturated alerts on the symptom",
	"lifetime-failures": "it judges one sample, counts since the process started; the rules always have a window, " +
		"where failing reconciles are retry-storm or persistent-failures",
	"webhook-slows-writes": "which writes a webhook intercepts is in its configuration's rules, an API object; " +
		"no series names the resources a webhook's calls were for",
	"stale-sync-skips": "info: a skipped sync is the controller waiting for its own write, as designed; " +
		"a watch that trails is judged by cache-sync-lag and the API server's alerts",
	"workers-blocked": "where the workers wait is in the process's goroutine dump, which no series carries; " +
		"cert-manager exports no workqueue series to count busy workers by",
	"warm-standby": "info: a standby that waits for the lead is no fault; the queue alerts leave its queues out " +
		"(" + RecordPrefix + recStandby + ")",
}

// notExported lists the checks without an alert, in code order.
func notExported() []NotExported {
	var out []NotExported
	for _, d := range findings.Catalog() {
		if why, ok := notExportedWhy[d.Check]; ok {
			out = append(out, NotExported{Code: d.Code, Check: d.Check, Why: why})
		}
	}
	return out
}
