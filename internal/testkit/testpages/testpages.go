// Package testpages gives tests the metrics pages captured from real programs under
// testdata/pages (kube-controller-manager, kube-apiserver, controller-runtime), parsed.
package testpages

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// Dir is the folder of the captured pages.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "pages")
}

// Parse reads the captured page name (gunzipped when it ends in .gz) and parses the families
// keep selects; it fails the test on any error.
func Parse(t testing.TB, name string, keep parse.Keep) *parse.Page {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir(), name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	p, err := parse.Parse(name, r, keep)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ParseText parses a page written in a test; it fails the test on any error.
func ParseText(t testing.TB, page string) map[string]*dto.MetricFamily {
	t.Helper()
	p, err := parse.Parse("page", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.Families
}
