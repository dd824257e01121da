// Package krewmanifest renders and checks the krew plugin manifest of kubectl-ctrldiag.
//
// It renders the release template krew-manifest.yaml into plugins/ctrldiag.yaml with the
// sha256 of the archives hack/dist.sh built, validates a manifest with the rules krew and
// krew-index apply (kubernetes-sigs/krew pkg/index/validation and
// cmd/validate-krew-manifest), and installs an archive the way `kubectl krew install` does
// (unpack, apply the `files` operations with krew's glob semantics, link `bin`), so that the
// tests can prove the manifest installs without krew itself.
package krewmanifest

import (
	"fmt"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// The values krew accepts in a plugin manifest.
const (
	APIVersion = "krew.googlecontainertools.github.com/v1alpha2"
	Kind       = "Plugin"
)

// Plugin is a krew plugin manifest; the fields mirror krew's pkg/index.Plugin.
type Plugin struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PluginSpec `json:"spec"`
}

// PluginSpec is the spec of a krew plugin manifest.
type PluginSpec struct {
	Version          string     `json:"version,omitempty"`
	ShortDescription string     `json:"shortDescription,omitempty"`
	Description      string     `json:"description,omitempty"`
	Caveats          string     `json:"caveats,omitempty"`
	Homepage         string     `json:"homepage,omitempty"`
	Platforms        []Platform `json:"platforms,omitempty"`
}

// Platform is one installable archive and the selector of the os/arch it is for.
type Platform struct {
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	URI      string                `json:"uri,omitempty"`
	Sha256   string                `json:"sha256,omitempty"`
	Files    []FileOperation       `json:"files"`
	Bin      string                `json:"bin,omitempty"`
}

// FileOperation copies the files matching From (a path or a glob) inside the unpacked
// archive to To inside the installation directory.
type FileOperation struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// Parse decodes a manifest strictly: unknown fields are errors, as krew's index scanner
// treats them.
func Parse(data []byte) (Plugin, error) {
	var p Plugin
	if err := yaml.UnmarshalStrict(data, &p); err != nil {
		return Plugin{}, fmt.Errorf("decoding plugin manifest: %w", err)
	}
	return p, nil
}

// ReadFile parses the manifest at path.
func ReadFile(path string) (Plugin, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Plugin{}, err
	}
	p, err := Parse(data)
	if err != nil {
		return Plugin{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
