// Package suppress lets a team accept a finding for now, with a reason and an expiry, without
// turning its check off for everyone: entries of an ignore file (YAML) and a workload's
// ctrldiag.io/ignore annotation. Apply moves the findings they name out of a report's
// findings (and so out of --fail-on, the findings tables, and junit/github failures) into the
// report's own list of suppressed findings, each with its reason and source.
package suppress

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
)

// DefaultFile is read from the current folder when present and --ignore-file is not given.
const DefaultFile = ".ctrldiag-ignore.yaml"

// Entry is one entry of an ignore file.
type Entry struct {
	// Check is the catalog slug (a code in the file is turned into its slug).
	Check string
	// Namespace and Controller narrow the entry to targets in a namespace and to one
	// controller or queue; empty matches any.
	Namespace  string
	Controller string
	Reason     string
	// Expires is the last day the entry applies (UTC); zero when it does not expire.
	Expires time.Time
	// Source is FILE:LINE of the entry.
	Source string
}

// Rules are the entries of an ignore file.
type Rules struct {
	Entries []Entry
}

// Load reads the ignore file --ignore-file names: "" reads DefaultFile of the current folder
// when present, "none" reads nothing (nil). report and diff read it so, and so agree.
func Load(path string) (*Rules, error) {
	switch path {
	case "none":
		return nil, nil
	case "":
		if _, err := os.Stat(DefaultFile); err != nil {
			return nil, nil
		}
		path = DefaultFile
	}
	return LoadFile(path)
}

// LoadFile reads an ignore file. Every problem names the file and the line.
func LoadFile(path string) (*Rules, error) {
	b, err := localfile.ReadSmall(path)
	if err != nil {
		return nil, fmt.Errorf("read ignore file: %w", err)
	}
	return Parse(path, b)
}

// entryKeys are the keys an entry may have.
var entryKeys = map[string]bool{"check": true, "namespace": true, "controller": true, "reason": true, "expires": true}

// Parse reads an ignore file's content; name is used in errors and sources.
func Parse(name string, b []byte) (*Rules, error) {
	fail := func(line int, format string, a ...any) error {
		return fmt.Errorf("ignore file %s line %d: %s", name, line, fmt.Sprintf(format, a...))
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &Rules{}, nil // an empty file ignores nothing
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if strings.HasPrefix(msg, "line ") {
			return nil, fmt.Errorf("ignore file %s %s", name, msg)
		}
		return nil, fmt.Errorf("ignore file %s: %s", name, msg)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "want a mapping with the key ignore: a list of entries")
	}
	rules := &Rules{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "ignore" {
			return nil, fail(k.Line, "unknown key %q: the file has one key, ignore", k.Value)
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue
		}
		if v.Kind != yaml.SequenceNode {
			return nil, fail(v.Line, "ignore must be a list of entries")
		}
		for _, n := range v.Content {
			e, err := parseEntry(n, fail)
			if err != nil {
				return nil, err
			}
			e.Source = fmt.Sprintf("%s:%d", name, n.Line)
			rules.Entries = append(rules.Entries, e)
		}
	}
	return rules, nil
}

func parseEntry(n *yaml.Node, fail func(int, string, ...any) error) (Entry, error) {
	var e Entry
	if n.Kind != yaml.MappingNode {
		return e, fail(n.Line, "an entry must be a mapping with check and reason")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !entryKeys[k.Value] {
			return e, fail(k.Line, "unknown key %q: use check, namespace, controller, reason, expires", k.Value)
		}
		if v.Kind != yaml.ScalarNode {
			return e, fail(v.Line, "%s must be a single value", k.Value)
		}
		switch k.Value {
		case "check":
			check, ok := CheckOf(v.Value)
			if !ok {
				return e, fail(v.Line, "unknown check %q: use a code (CD208) or a slug (workers-saturated) of the findings catalog", v.Value)
			}
			e.Check = check
		case "namespace":
			e.Namespace = v.Value
		case "controller":
			e.Controller = v.Value
		case "reason":
			e.Reason = strings.TrimSpace(v.Value)
		case "expires":
			t, err := time.Parse(time.DateOnly, v.Value)
			if err != nil {
				return e, fail(v.Line, "expires %q is not a date like 2026-12-31", v.Value)
			}
			e.Expires = t
		}
	}
	if e.Check == "" {
		return e, fail(n.Line, "the entry has no check: name a code (CD208) or a slug")
	}
	if e.Reason == "" {
		return e, fail(n.Line, "the entry for %s has no reason: say why the finding is accepted", e.Check)
	}
	return e, nil
}

// CheckOf returns the catalog slug of a code (CD208) or slug (workers-saturated).
func CheckOf(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, d := range findings.Catalog() {
		if strings.EqualFold(s, d.Code) || s == d.Check {
			return d.Check, true
		}
	}
	return "", false
}

// Expired reports whether the entry no longer applies at now: after the whole day it names.
func (e Entry) Expired(now time.Time) bool {
	return !e.Expires.IsZero() && !now.Before(e.Expires.AddDate(0, 0, 1))
}
