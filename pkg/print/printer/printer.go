// Package printer prints any value as data, in the -o forms every command shares with kubectl:
// json and yaml (keyed by the value's json tags, control characters escaped), jsonpath,
// go-template, custom-columns and name through cli-runtime's printers, and --sort-by over a
// list's items. It knows no view: the report and table layouts are pkg/print/render's, and the
// reference operator's commands print through this package alone.
package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Data reports whether format prints a value's data, whatever its type: json, yaml, or one of
// kubectl's forms as Prepare returned it.
func Data(format string) bool {
	return format == "json" || format == "yaml" || KubectlForm(format)
}

// Write prints v in format, one of Data's; noHeaders leaves the header line out of
// -o custom-columns.
func Write(w io.Writer, format string, v any, noHeaders bool) error {
	switch format {
	case "json":
		// Encoded compact, then indented in one pass (indentJSON): the encoder's own
		// indentation reads every byte through its scanner, several times the encoding.
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(v); err != nil {
			return err
		}
		_, err := w.Write(printable.Quoted(indentJSON(make([]byte, 0, buf.Len()*2), buf.Bytes())))
		return err
	case "yaml":
		return writeYAML(w, v)
	}
	if KubectlForm(format) {
		return writeObject(w, format, v, noHeaders)
	}
	return fmt.Errorf("printer: %q is not a data format", format)
}

// ValidateFormat returns an error naming the allowed values when format is not one of them.
// Commands that print kubectl's forms (jsonpath=..., custom-columns=..., name) use Prepare.
func ValidateFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return unknownFormat(format, allowed)
}

// unknownFormat is the error of an -o value not among allowed, which it lists.
func unknownFormat(format string, allowed []string) error {
	shown := make([]string, 0, len(allowed))
	for _, a := range allowed {
		if a != "" { // "" is the default output, not something to type
			shown = append(shown, a)
		}
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(shown, ", "))
}
