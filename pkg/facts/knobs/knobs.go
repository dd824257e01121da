// Package knobs recognises well-known controllers (kube-controller-manager, FluxCD, Cluster
// API, Argo CD, cert-manager) from what a target shows of itself, and names the setting that
// sizes the part a finding is about: the workers of one queue, or the client's rate limits.
// What it knows is data (knobs.yaml): the signs of each controller and its flags with their
// defaults. A controller it does not recognise gets no knob; the findings then keep their
// advice for the kind of controller (controller-runtime's MaxConcurrentReconciles, ...).
package knobs

import (
	"fmt"
	"sort"
	"sync"

	"sigs.k8s.io/yaml"
)

// knobs.yaml is compiled into knobs_gen.go (knownTable), so that a run does not parse it; a
// test holds the two equal.
//go:generate go run ../../../hack/gentables -table knobs

// Table is the whole of knobs.yaml.
type Table struct {
	Sizes       []Size       `json:"sizes"`
	Controllers []Controller `json:"controllers"`
}

// Size is what a knob can size ("workers", "client") and the finding checks it answers.
type Size struct {
	Name   string   `json:"name"`
	Checks []string `json:"checks"`
}

// checksOf returns the checks a knob of size name answers.
func (t Table) checksOf(name string) []string {
	for _, s := range t.Sizes {
		if s.Name == name {
			return s.Checks
		}
	}
	return nil
}

// Controller is one well-known controller: how to tell it, and its knobs.
type Controller struct {
	// Title names it in recommendations, e.g. "FluxCD".
	Title string `json:"title"`
	Signs Signs  `json:"signs"`
	Knobs []Knob `json:"knobs"`
	// AllNamespaces, when set, says the controller reconciles its kinds in every namespace
	// unless one of its flags restricts it.
	AllNamespaces *Scope `json:"allNamespaces,omitempty"`
}

// Scope is how a controller that reconciles every namespace is restricted to some.
type Scope struct {
	// Unless are the flags that restrict it: set to Value, or to anything when Value is "".
	Unless []Restriction `json:"unless,omitempty"`
}

// Restriction is a flag, and the value of it, that restricts a controller to namespaces.
type Restriction struct {
	Flag  string `json:"flag"`
	Value string `json:"value,omitempty"`
}

// Signs are what tells a controller apart; any one of them is enough.
type Signs struct {
	// Images are image repositories, matched at the end of the container image's repository
	// (registry and tag aside): "fluxcd/source-controller" matches
	// "ghcr.io/fluxcd/source-controller:v1.4.1" and a mirror's copy of it.
	Images []string `json:"images,omitempty"`
	// Binaries are program names, matched against the base name of the container's first
	// command word (or first argument when it has no command).
	Binaries []string `json:"binaries,omitempty"`
	// Metrics are metric families only this controller exports. They are read from the
	// page, so only families of a few series belong here.
	Metrics []string `json:"metrics,omitempty"`
	// Queues are workqueue (controller) names only this controller uses.
	Queues []string `json:"queues,omitempty"`
}

// Knob is a setting of a controller and what it sizes.
type Knob struct {
	// Sizes is the name of a Table.Sizes entry: "workers" or "client".
	Sizes string `json:"sizes"`
	// Queues are the queues whose workers it sets; empty: every queue of the controller.
	Queues []string `json:"queues,omitempty"`
	Flags  []Flag   `json:"flags"`
	// Note is a sentence said after the advice (another place to set it, a limit beside it).
	Note string `json:"note,omitempty"`
}

// Flag is a command-line flag and its default.
type Flag struct {
	Flag    string `json:"flag"`
	Default string `json:"default"`
	// Env is an environment variable the controller reads as the flag's default (Argo CD's
	// install sets its processors so, from a ConfigMap).
	Env string `json:"env,omitempty"`
}

// table returns knobs.yaml, as compiled into the binary.
func table() Table { return knownTable }

// ParseTable reads the text of knobs.yaml.
func ParseTable(b []byte) (Table, error) {
	var t Table
	if err := yaml.UnmarshalStrict(b, &t); err != nil {
		return Table{}, fmt.Errorf("knobs: knobs.yaml: %w", err)
	}
	return t, nil
}

// Env reports whether a flag of the table takes its default from the environment variable
// name: a snapshot keeps its value.
func Env(name string) bool {
	return envNames()[name]
}

var envNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range table().Controllers {
		for _, k := range c.Knobs {
			for _, f := range k.Flags {
				if f.Env != "" {
					m[f.Env] = true
				}
			}
		}
	}
	return m
})

// Load returns the table of well-known controllers.
func Load() Table { return table() }

// Wanted reports whether recognition reads the metric family of this name: a source filtering
// pages before parsing keeps these beside what the model reads.
func Wanted(family string) bool {
	return metricSigns()[family]
}

// Families lists the metric families Wanted accepts, sorted.
func Families() []string {
	out := make([]string, 0, len(metricSigns()))
	for f := range metricSigns() {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

var metricSigns = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range table().Controllers {
		for _, f := range c.Signs.Metrics {
			m[f] = true
		}
	}
	return m
})
