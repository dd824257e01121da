package printer

import (
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/printers"
)

// identity names the fields that tell one item of a list from the others, by the list's kind:
// -o name prints them joined by "/" after the item's kind, as kubectl prints
// KIND.GROUP/NAME. Empty fields (a cluster outside a fleet) are left out.
var identity = map[string][]string{
	"QueueList":  {"cluster", "target", "queue"},
	"TargetList": {"cluster", "namespace", "name"},
}

// writeNames prints `kind.group/name` for each item of doc, a list, with cli-runtime's
// NamePrinter: queue.ctrldiag.dev/NAMESPACE/POD/QUEUE.
func writeNames(w io.Writer, doc map[string]any) error {
	listKind, _ := doc["kind"].(string)
	fields, ok := identity[listKind]
	if !ok {
		return fmt.Errorf("-o name prints the items of a list, and this output is a %s", listKind)
	}
	apiVersion, _ := doc["apiVersion"].(string)
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": apiVersion, "kind": listKind}}
	for _, it := range items(doc) {
		var parts []string
		for _, f := range fields {
			if s, _ := it[f].(string); s != "" {
				parts = append(parts, s)
			}
		}
		item := unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": strings.TrimSuffix(listKind, "List")}}
		item.SetName(strings.Join(parts, "/"))
		list.Items = append(list.Items, item)
	}
	return (&printers.NamePrinter{}).PrintObj(list, w)
}
