package report

import (
	"context"
	"encoding/json"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// targetInputs pairs each sampled source with its target and pod, and lists the pods for
// section 1 (scraped ones, skipped ones with the reason).
func targetInputs(plan *collect.Plan, results []sample.Result) ([]report.TargetInput, []report.PodInput) {
	var targets []report.TargetInput
	scraped := map[string]bool{}
	for i, src := range plan.Sources {
		ti := report.TargetInput{Result: results[i]}
		switch s := src.(type) {
		case *scrape.ClusterSource:
			ti.Target = s.Target
			ti.Pod = plan.Pods[s.Target.Namespace+"/"+s.Target.Name]
			scraped[s.Target.Namespace+"/"+s.Target.Name] = true
		case *scrape.FileSource:
			ti.Target = target.Target{Kind: target.KindFile, Name: s.Name()}
		default:
			ti.Target = target.Target{Kind: target.KindURL, Name: s.Name()}
		}
		targets = append(targets, ti)
	}
	for _, f := range plan.Failed {
		targets = append(targets, report.TargetInput{Target: f.Target, Pod: plan.Pods[f.Target.Namespace+"/"+f.Target.Name],
			Result: sample.Result{Target: f.Target.ID(), Err: f.Err}})
		scraped[f.Target.Namespace+"/"+f.Target.Name] = true
	}
	notes := map[string]string{}
	for _, s := range plan.Skipped {
		notes[s.Namespace+"/"+s.Pod] = "not scraped: " + s.Reason
	}
	keys := make([]string, 0, len(plan.Pods))
	for k := range plan.Pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pods []report.PodInput
	for _, k := range keys {
		pods = append(pods, report.PodInput{Pod: plan.Pods[k], Scraped: scraped[k], Note: notes[k]})
	}
	return targets, pods
}

// podUsage reads metrics.k8s.io for the namespaces of the pods, once per namespace.
func podUsage(ctx context.Context, k *collect.Kube, plan *collect.Plan) (map[string]report.Usage, string) {
	usage := map[string]report.Usage{}
	done := map[string]bool{}
	for _, p := range plan.Pods {
		if done[p.Namespace] {
			continue
		}
		done[p.Namespace] = true
		raw, err := k.Client.CoreV1().RESTClient().Get().AbsPath("/apis/metrics.k8s.io/v1beta1/namespaces", p.Namespace, "pods").DoRaw(ctx)
		if apierrors.IsNotFound(err) {
			return nil, "metrics.k8s.io is not served in this cluster (no metrics-server)"
		}
		if err != nil {
			return nil, "metrics.k8s.io: " + err.Error()
		}
		var list struct {
			Items []struct {
				Metadata   struct{ Name, Namespace string }
				Containers []struct {
					Usage map[string]string
				}
			}
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, "metrics.k8s.io: " + err.Error()
		}
		for _, it := range list.Items {
			var u report.Usage
			for _, c := range it.Containers {
				if q, err := resource.ParseQuantity(c.Usage["cpu"]); err == nil {
					u.CPUCores += q.AsApproximateFloat64()
				}
				if q, err := resource.ParseQuantity(c.Usage["memory"]); err == nil {
					u.MemoryBytes += q.AsApproximateFloat64()
				}
			}
			usage[it.Metadata.Namespace+"/"+it.Metadata.Name] = u
		}
	}
	return usage, ""
}
