package parse

import (
	"bytes"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/test/pagegen"
)

// benchPages are the pages the parse benchmarks read: one capture of each kind of target, and
// the synthetic 30 MB page test/pagegen grows from the large kube-apiserver capture.
func benchPages(b *testing.B) []struct {
	name string
	page []byte
} {
	all := fixtures(b)
	pages := []struct {
		name string
		page []byte
	}{
		{"controller-runtime", all["controller-runtime-1.prom"]},
		{"kube-controller-manager", all["kube-controller-manager-1.prom.gz"]},
		{"kube-apiserver-3.6MB", all["kube-apiserver-large.prom.gz"]},
	}
	big, err := pagegen.Page(syntheticSeed, 30<<20)
	if err != nil {
		b.Fatal(err)
	}
	// The timed path must be exact on this page too, not only on the fixtures.
	if err := filterEqualsFull("synthetic", big, health.Wanted); err != nil {
		b.Fatal(err)
	}
	if err := reducedEqualsFull(big); err != nil {
		b.Fatal(err)
	}
	return append(pages, struct {
		name string
		page []byte
	}{"synthetic-apiserver-30MB", big})
}

// BenchmarkParse compares, on each page, the streaming filtered parse as the commands run it
// (keeping what health.Wanted keeps, the families the model reads in part reduced, as `report`
// reads them) with the baseline: expfmt's full parse of the whole page.
func BenchmarkParse(b *testing.B) {
	for _, p := range benchPages(b) {
		b.Run(p.name+"/baseline=expfmt-full", func(b *testing.B) {
			b.SetBytes(int64(len(p.page)))
			b.ReportAllocs()
			for range b.N {
				parser := expfmt.NewTextParser(model.UTF8Validation)
				if _, err := parser.TextToMetricFamilies(bytes.NewReader(p.page)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(p.name+"/filtered", func(b *testing.B) {
			b.SetBytes(int64(len(p.page)))
			b.ReportAllocs()
			for range b.N {
				sel := NewReducingSelector(health.Wanted, healthReduced())
				if _, err := ParseSelected(p.name, bytes.NewReader(p.page), sel); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
