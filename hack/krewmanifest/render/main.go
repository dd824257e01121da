// Command render writes plugins/ctrldiag.yaml from the krew-manifest.yaml template and the
// archives in dist/ (checksums.txt and BUILDINFO written by hack/dist.sh). It validates the
// result with krew's rules and installs every archive the way krew would before writing,
// so an invalid manifest is never written. hack/krew-manifest.sh runs it.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/hack/krewmanifest"
)

func main() {
	tmpl := flag.String("template", "krew-manifest.yaml", "manifest template")
	dist := flag.String("dist", "dist", "directory with the archives, checksums.txt and BUILDINFO")
	out := flag.String("o", "plugins/ctrldiag.yaml", "rendered manifest to write")
	flag.Parse()
	if err := run(*tmpl, *dist, *out); err != nil {
		fmt.Fprintln(os.Stderr, "krew-manifest: "+err.Error())
		os.Exit(1)
	}
}

func run(tmplFile, dist, out string) error {
	tmpl, err := os.ReadFile(tmplFile)
	if err != nil {
		return err
	}
	rel, err := krewmanifest.ReadRelease(dist)
	if err != nil {
		return fmt.Errorf("%w (run hack/dist.sh first)", err)
	}
	if strings.HasSuffix(rel.Commit, "-dirty") {
		return fmt.Errorf("%s was built from uncommitted changes (commit %s): commit, then run hack/dist.sh again", dist, rel.Commit)
	}
	rendered, err := krewmanifest.Render(tmpl, rel)
	if err != nil {
		return fmt.Errorf("rendering %s: %w", tmplFile, err)
	}
	p, err := krewmanifest.Parse(rendered)
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(out), ".yaml")
	if err := krewmanifest.Validate(name, p); err != nil {
		return fmt.Errorf("the rendered manifest is not valid:\n%w", err)
	}
	var errs []error
	for i, pl := range p.Spec.Platforms {
		tmp, err := os.MkdirTemp("", "krew-manifest-install-")
		if err != nil {
			return err
		}
		_, err = krewmanifest.Install(filepath.Join(dist, filepath.Base(pl.URI)), pl, tmp)
		os.RemoveAll(tmp)
		if err != nil {
			errs = append(errs, fmt.Errorf("spec.platforms[%d]: %w", i, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("the archives do not install with this manifest:\n%w", err)
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, rendered) {
		fmt.Fprintf(os.Stderr, "krew-manifest: %s is up to date (%s)\n", out, rel.Version)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, rendered, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "krew-manifest: wrote %s for %s (commit %s)\n", out, rel.Version, rel.Commit)
	return nil
}
