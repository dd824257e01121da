// Package printers writes the plugin's result objects as JSON or YAML. Every command shares it
// so that `-o json` and `-o yaml` render exactly the same data, keyed by the json tags.
package printers

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// Structured reports whether format is one this package renders (json or yaml).
func Structured(format string) bool {
	return format == "json" || format == "yaml"
}

// ValidateFormat returns an error naming the allowed values when format is not one of them.
func ValidateFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	shown := make([]string, 0, len(allowed))
	for _, a := range allowed {
		if a != "" { // "" is the default text output, not something to type
			shown = append(shown, a)
		}
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(shown, ", "))
}

// Write renders obj to w as "json" (indented) or "yaml".
func Write(w io.Writer, format string, obj any) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(obj)
	case "yaml":
		b, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("printers: format %q is not json or yaml", format)
}
