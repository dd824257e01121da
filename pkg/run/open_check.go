package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
)

// The defaults of a Spec's values that their sources define.
const (
	// DefaultMaxBodyBytes is the largest page accepted, after decompression.
	DefaultMaxBodyBytes = scrape.DefaultMaxBodyBytes
	// DefaultMaxSeries is the most series one answer of a Prometheus server may hold.
	DefaultMaxSeries = promsource.DefaultMaxSeries
	// DefaultQueryTimeout bounds one query to a Prometheus server.
	DefaultQueryTimeout = promsource.DefaultTimeout
	// DefaultWindow is the window between the two samples rebuilt from a server's series.
	DefaultWindow = promsource.DefaultWindow
)

// CheckURL says whether raw is a metrics endpoint Open can read (Spec.URLs); its error names
// the value as --url.
func CheckURL(raw string) error {
	_, err := scrape.NewURLSource(raw, nil, scrape.HTTPConfig{})
	return err
}

// CheckTarget says whether arg is a TARGET discovery understands (Spec.Explicit).
func CheckTarget(arg string) error {
	_, _, err := discover.ParseExplicit(arg)
	return err
}

// CheckPrometheusURL says whether raw is the base URL of a Prometheus server
// (Prometheus.URL, but for svc/...).
func CheckPrometheusURL(raw string) error {
	_, err := promsource.ParseURL(raw)
	return err
}

// CheckFiles says whether the --from-file values are ones Open can read (Spec.Files): each
// PATH, BEFORE,AFTER, or either after NAME=, standard input at most once, no NAME twice, and
// each path a file that is there (not a folder).
func CheckFiles(values []string) error {
	fps, err := collect.ParseFiles(values)
	if err != nil {
		return err
	}
	for _, fp := range fps {
		for _, p := range fp.Paths {
			if p == "-" {
				continue
			}
			st, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return fmt.Errorf("--from-file %s: no such file", printable.String(p))
			case err != nil:
				return fmt.Errorf("--from-file %s: %v", printable.String(p), err)
			case st.IsDir():
				return fmt.Errorf("--from-file %s is a folder: give the path of a saved metrics page", printable.String(p))
			}
		}
	}
	return nil
}
