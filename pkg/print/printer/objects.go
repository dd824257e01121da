package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// kubectl's -o forms print the output's data as kubectl get does, through cli-runtime's
// printers: with a template of the user's (JSONPath or a Go template, inline or in a file),
// as custom columns of a list's items, or as the names of its items.

// TemplateFormats are the -o forms that print the whole output through a template, as typed
// before the template: every command that prints data takes them.
var TemplateFormats = []string{"jsonpath=", "jsonpath-file=", "jsonpath-as-json=", "go-template=", "go-template-file=", "template=", "templatefile="}

// ItemFormats are the -o forms that print a line per item of a list (queues, targets).
var ItemFormats = []string{"name", "custom-columns=", "custom-columns-file="}

// fromFile maps the forms that name a file to the form that takes its content.
var fromFile = map[string]string{
	"jsonpath-file": "jsonpath", "go-template-file": "go-template", "templatefile": "go-template",
	"custom-columns-file": "custom-columns",
}

// Prepare checks format, a command's -o, against allowed (where "jsonpath=" stands for every
// jsonpath=TEMPLATE) and returns it ready for Write: a template or columns that parse, the
// content of a file it names in place of the name (read once, small and bounded, as every
// file the user names).
func Prepare(format string, allowed ...string) (string, error) {
	kind, arg, hasArg := strings.Cut(format, "=")
	if !slices.Contains(allowed, format) && !(hasArg && slices.Contains(allowed, kind+"=")) {
		return "", unknownFormat(format, allowed)
	}
	if !hasArg || !KubectlForm(format) {
		return format, nil
	}
	if arg == "" {
		return "", fmt.Errorf("-o %s= needs a value after the =, e.g. -o %s", kind, example(kind))
	}
	if content, ok := fromFile[kind]; ok {
		b, err := localfile.ReadSmall(arg)
		if err != nil {
			return "", fmt.Errorf("-o %s: %w", kind, err)
		}
		kind, arg = content, string(b)
		format = kind + "=" + arg
	}
	if kind == "custom-columns" {
		_, err := parseColumns(arg)
		return format, err
	}
	_, err := templatePrinter(format)
	return format, err
}

// KubectlForm reports whether format is one of kubectl's forms (jsonpath=..., go-template=..., custom-columns=..., name).
func KubectlForm(format string) bool {
	kind, _, hasArg := strings.Cut(format, "=")
	if !hasArg {
		return format == "name"
	}
	return slices.Contains(TemplateFormats, kind+"=") || slices.Contains(ItemFormats, kind+"=")
}

// example is an -o value of kind that works, for messages.
func example(kind string) string {
	switch {
	case strings.HasPrefix(kind, "custom-columns"):
		return "custom-columns=TARGET:.target,QUEUE:.queue"
	case strings.HasPrefix(kind, "jsonpath"):
		return "jsonpath='{.items[*].queue}'"
	}
	return `go-template='{{range .items}}{{.queue}}{{"\n"}}{{end}}'`
}

// templatePrinter is cli-runtime's printer of a jsonpath=, jsonpath-as-json= or go-template=
// (template=) format, missing keys allowed as kubectl get allows them.
func templatePrinter(format string) (interface {
	PrintObj(runtime.Object, io.Writer) error
}, error) {
	flags := genericclioptions.NewPrintFlags("")
	flags.JSONYamlPrintFlags, flags.NamePrintFlags = nil, nil
	flags.OutputFormat = &format
	p, err := flags.ToPrinter()
	if err != nil {
		kind, _, _ := strings.Cut(format, "=")
		return nil, fmt.Errorf("-o %s: %v", kind, err)
	}
	return p, nil
}

// writeObject prints v, a command's output, in one of kubectl's forms, as Prepare returned it.
// The printers see the data of -o json, with every string from outside escaped as in every
// other output.
func writeObject(w io.Writer, format string, v any, noHeaders bool) error {
	doc, err := asMaps(v)
	if err != nil {
		return err
	}
	kind, arg, _ := strings.Cut(format, "=")
	switch kind {
	case "name":
		return writeNames(w, doc)
	case "custom-columns":
		cols, err := parseColumns(arg)
		if err != nil {
			return err
		}
		return writeColumns(w, cols, items(doc), noHeaders)
	}
	p, err := templatePrinter(format)
	if err != nil {
		return err
	}
	return p.PrintObj(&unstructured.Unstructured{Object: doc}, w)
}

// asMaps is v as -o json has it, decoded into maps, with its strings escaped.
func asMaps(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	return printable.Value(doc), nil
}

// items are the objects of a list's "items", or none.
func items(doc map[string]any) []map[string]any {
	list, _ := doc["items"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
