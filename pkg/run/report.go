package run

import (
	"context"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/suppress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// ReportConfig is what `report` needs besides its source.
type ReportConfig struct {
	// Read says how to read the targets (the families to keep are the stages' choice).
	Read       source.Options
	Thresholds findings.Thresholds
	Scope      source.Scope
	// Generations are resources checked for generation lag, when a cluster is read, besides
	// the built-in workloads and the reference operator's Workloads.
	Generations []schema.GroupVersionResource
	// ControllerKinds name the kind a controller reconciles, by controller name, where its
	// name does not say it (--controller-kind).
	ControllerKinds map[string]schema.GroupKind
	// MemoryLimitBytes applies to targets without a pod (--url, --from-file); 0 = none.
	MemoryLimitBytes float64
	// Ignore are the ignore file's entries (--ignore-file); nil for none. Pods'
	// ctrldiag.io/ignore annotations apply either way.
	Ignore *suppress.Rules
	// Workers are the workers of queues whose metrics do not say it (--workers QUEUE=N).
	Workers map[string]float64
	// FailOn is the level the findings are judged against for the exit code (--fail-on).
	FailOn findings.FailOnLevel
	// Profile says whether and how the goroutine dumps of stuck, slow or saturated workers
	// are read (--no-profile, --pprof-port).
	Profile ProfileConfig
	// Logs says whether the controllers' logs are read (--no-logs).
	Logs LogConfig
}

// ReportResult is the report and what to say beside it.
type ReportResult struct {
	Report view.Report
	// Warnings are things the user should know (stderr).
	Warnings []string

	failOn findings.FailOnLevel
	// late is Late's error.
	late error
}

// Failed reports whether a finding of the report reaches --fail-on (suppressed findings are
// no longer among them), or, with --fail-on set, the server answered partially and series
// are or may be missing (what is missing may hold any finding, so the report cannot pass; a
// store down whose replica answered misses nothing): then the command exits 3 once its
// output is written.
func (r *ReportResult) Failed() bool {
	return r.failOn.Fails(r.Report.Findings) || r.failOn.Severity != "" && r.Report.Partial != nil && !r.Report.Partial.Whole
}

// NoneRead reports whether no target could be read: the report says why in its findings,
// and the command fails.
func (r *ReportResult) NoneRead() bool { return r.Report.Summary.Read == 0 }

// Late is the run's deadline error when the deadline passed before any target was read
// (source.DeadlineError): what the command fails with then; nil otherwise.
func (r *ReportResult) Late() error { return r.late }

// ReportWith reads env's targets twice and diagnoses them. In a cluster it also checks
// generation lag before and after the reading (objects still lagging after the window are the
// ones that count), reads the objects the controllers reconcile and the metrics API's usage.
// It fails only when nothing was found; a report whose targets all failed is returned, with
// the scrape-failed findings saying why.
func ReportWith(ctx context.Context, cfg ReportConfig, env Env) (*ReportResult, error) {
	resources := append(append([]schema.GroupVersionResource(nil), cachesync.DefaultGenerationResources...), cfg.Generations...)
	var genBefore []cachesync.GenerationReport
	m, err := env.model(ctx, readPlan{read: cfg.Read, keep: reportFamilies, reduce: reducedFamilies(),
		nothing: func(*source.Inventory) string {
			return "no controller metrics endpoint found: name a target (pod/NAME, deploy/NAME, svc/NAME), look in another namespace (-n, -A), or give --url; `kubectl ctrldiag targets` shows what discovery sees"
		},
		opened: func(ctx context.Context, inv *source.Inventory) {
			if inv.Cluster != nil {
				genBefore = inv.Cluster.Generations(ctx, cfg.Scope.Namespace, resources)
			}
		},
		first: func(ctx context.Context, inv *source.Inventory) func(source.Result) {
			if inv.Cluster == nil || cfg.Read.Interval <= 0 {
				return nil
			}
			// The objects' changes are counted and their spec latency measured over the
			// window, from each target's first sample, for all of its controllers: a healthy
			// controller's queue is mostly empty then, and its spec latency is judged too (a
			// watch starts with a list of the kind, once per kind).
			return func(r source.Result) {
				r.Pod = inv.Pods[r.Target.Namespace+"/"+r.Target.Name]
				r.WatchEnv = inv.WatchEnv[r.Target.Namespace+"/"+r.Target.Name]
				m := r.Model()
				if cs := report.Controllers([]model.Target{m}); len(cs) > 0 {
					inv.Cluster.WatchChanges(ctx, cfg.Scope.Namespace, cs, cfg.ControllerKinds, time.Duration(cfg.Thresholds.TargetSpecLatency))
				}
			}
		},
	})
	if err != nil {
		return nil, err
	}
	// What is read from the cluster after the targets is bounded by --deadline too (the
	// reading itself stops each target at it, with its own error).
	defer m.cancel()
	ctx, inv, targets := m.ctx, m.inv, m.targets

	var admissionNotes []string // what keeps slow webhooks from being tied to controllers
	in := report.Input{Scope: cfg.Scope.String(), Thresholds: cfg.Thresholds,
		MemoryLimitBytes: cfg.MemoryLimitBytes, Workers: cfg.Workers, Now: env.now(), Targets: targets, Pods: podInputs(inv, targets),
		ClusterRead: inv.ClusterRead, ClusterAbsent: inv.ClusterAbsent, Partial: partialView(inv.Partial), Resolution: inv.Resolution,
		ResolutionNote: inv.ResolutionNote}
	if inv.ClusterAbsent != "" {
		in.UsageNote = "the metrics API was not read: " + inv.ClusterAbsent
	}
	if inv.Cluster != nil {
		admissionNotes = clusterFacts(ctx, cfg, inv, targets, genBefore, resources, &in)
	}
	// The log and the flags are facts of their target, read before judging. The report is built once and
	// judged once; again only with goroutine dumps read for what the first judging found.
	readLogs(ctx, env, cfg.Logs, cfg.Read.Timeout, in)
	readFlagz(ctx, env, cfg.Read.Timeout, in)
	draft := report.Prepare(in)
	fs := draft.Judge()
	if profileWorkers(ctx, env, cfg.Profile, cfg.Read.Timeout, draft, fs) {
		fs = draft.Judge()
	}
	suppress, suppressWarnings := suppressions(ctx, cfg, inv, targets)
	rep := draft.Finish(fs, suppress)

	warnings := append(append([]string(nil), inv.Warnings...), notes(targets)...)
	warnings = append(warnings, implausibleWorkers(targets)...)
	warnings = append(warnings, rep.WindowNotes...)
	warnings = append(warnings, suppressWarnings...)
	warnings = append(warnings, admissionNotes...)
	if w := deadlineWarning(ctx); inv.Cluster != nil && w != "" {
		warnings = append(warnings, w)
	}
	res := &ReportResult{Report: rep, Warnings: warnings, failOn: cfg.FailOn}
	if res.NoneRead() {
		res.late = nothingRead(ctx, targets)
	}
	return res, nil
}

// clusterFacts reads what the metrics do not hold from the cluster, after the targets:
// generation lag still there after the window, the objects the controllers reconcile and
// the Warning events that speak of them, the admission webhook configurations (with, for a slow or rejecting webhook, the kinds controllers own) and the FlowSchemas when an API server's page was read, the pods' usage and,
// for replicas whose metrics do not say who leads, the Leases. It returns what kept slow
// webhooks (when the API server called any) or FlowSchemas from being tied to controllers.
func clusterFacts(ctx context.Context, cfg ReportConfig, inv *source.Inventory, targets []model.Target,
	genBefore []cachesync.GenerationReport, resources []schema.GroupVersionResource, in *report.Input) (admissionNotes []string) {
	in.Generations = cachesync.Still(genBefore, inv.Cluster.Generations(ctx, cfg.Scope.Namespace, resources))
	view := inv.Cluster.Objects(ctx, cfg.Scope.Namespace, report.Controllers(targets), cfg.ControllerKinds)
	in.Objects = &view
	evs := inv.Cluster.Events(ctx, cfg.Scope.Namespace, report.Controllers(targets), cfg.ControllerKinds, eventsSince(targets, in.Now))
	in.WarningEvents = &evs
	if read, calls := apiServerPage(targets); read {
		adm := inv.Cluster.Admission(ctx)
		probeOwnedKinds(ctx, inv.Cluster, targets, in.Objects, &adm, cfg.Thresholds)
		in.Admission = &adm
		fss := inv.Cluster.FlowSchemas(ctx)
		in.FlowSchemas = &fss
		admissionNotes = append(admissionNotes, fss.Notes...)
		if calls {
			admissionNotes = append(admissionNotes, adm.Notes...)
		}
		if adm.Ownership != nil {
			admissionNotes = append(admissionNotes, adm.Ownership.Notes...)
		}
	}
	in.Usage, in.UsageNote = inv.Cluster.Usage(ctx, namespaces(inv))
	if ns := model.UnsureLeader(report.Replicas(targets)); len(ns) > 0 {
		in.Leases = inv.Cluster.LeaseHolders(ctx, ns)
	}
	return admissionNotes
}

// suppressions are the accepted findings: the ignore file's entries and the
// ctrldiag.io/ignore annotations of the pods and, in a cluster, of their workloads; with what
// to warn about them.
func suppressions(ctx context.Context, cfg ReportConfig, inv *source.Inventory, targets []model.Target) (func([]findings.Finding) ([]findings.Finding, *suppress.Accepted), []string) {
	var workloads map[string]string
	var warnings []string
	if inv.Cluster != nil {
		workloads, warnings = inv.Cluster.WorkloadAnnotation(ctx, suppress.AnnotationKey, suppress.WorkloadKeys(targets))
	}
	ignored, annotationWarnings := suppress.Targets(targets, workloads)
	// Expiry is about today, also for a report read from a snapshot taken earlier.
	return suppress.By(cfg.Ignore, ignored, time.Now()), append(warnings, annotationWarnings...)
}

// apiServerPage says whether an API server's page was read (as the report tells one: its
// target, or a page that is an API server's), and whether it shows calls to admission
// webhooks. Only with the page do the webhook configurations say anything, and only with calls
// does it matter that they could not be read.
func apiServerPage(targets []model.Target) (read, callsWebhooks bool) {
	for _, t := range targets {
		cur := t.Last()
		if cur == nil || t.Target.Kind != target.KindAPIServer && findings.KindOf(cur, t.PodLabels()) != findings.KubeAPIServer {
			continue
		}
		read = true
		callsWebhooks = callsWebhooks || len(cur.Admission) > 0
	}
	return read, callsWebhooks
}

// reportFamilies are the metric families `report` parses: what the model reads, and the
// families that tell a well-known controller (whose knobs the findings name).
func reportFamilies(family string) bool { return health.Wanted(family) || knobs.Wanted(family) }

// reducedFamilies are the families of reportFamilies that the model reads only in part, as
// the parser reads them reduced (knobs reads none of them but by name).
func reducedFamilies() map[string]parse.Reduce {
	out := map[string]parse.Reduce{}
	for name, r := range health.Reduced() {
		out[name] = parse.Reduce(r)
	}
	return out
}

// podInputs lists the pods for section 1: those behind targets, and skipped ones with why.
func podInputs(inv *source.Inventory, targets []model.Target) []report.PodInput {
	scraped := map[string]bool{}
	for _, r := range targets {
		if r.Pod != nil {
			scraped[r.Pod.Namespace+"/"+r.Pod.Name] = true
		}
	}
	notes := map[string]string{}
	for _, s := range inv.Skipped {
		notes[s.Namespace+"/"+s.Pod] = "not scraped: " + s.Reason
	}
	keys := make([]string, 0, len(inv.Pods))
	for k := range inv.Pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pods []report.PodInput
	for _, k := range keys {
		pods = append(pods, report.PodInput{Pod: inv.Pods[k], Scraped: scraped[k], Note: notes[k]})
	}
	return pods
}

// namespaces are the namespaces of the inventory's pods, sorted.
func namespaces(inv *source.Inventory) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range inv.Pods {
		if !seen[p.Namespace] {
			seen[p.Namespace] = true
			out = append(out, p.Namespace)
		}
	}
	sort.Strings(out)
	return out
}
