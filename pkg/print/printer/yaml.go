package printer

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// writeYAML writes v as YAML keyed by its json tags, with sorted keys. A string that holds a
// control character (a label value from outside with a newline, say) is written double-quoted
// with the character escaped (C1 and bidi controls too, as \uXXXX), never as a block of lines: in a block each line of the string
// starts a line of the output, where a CI log would read "::error ..." as a command. Only
// then is the document re-encoded; everything else prints as sigs.k8s.io/yaml writes it.
func writeYAML(w io.Writer, v any) error {
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// The JSON is read as YAML with DEL and C1 controls escaped first: raw, YAML refuses them.
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(printable.Quoted(js), &doc); err != nil {
		return err
	}
	if !blockStyle(&doc, false) {
		b, err := yaml.JSONToYAML(js)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	blockStyle(&doc, true)
	var buf bytes.Buffer
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err = w.Write(printable.Quoted(buf.Bytes()))
	return err
}

// blockStyle reports whether the tree under n holds a string with a character to escape.
// With restyle, it also readies the tree, parsed from JSON, to be written as the usual YAML:
// mappings and sequences in block style, mapping keys sorted, strings quoted only where
// needed, and those with characters to escape double-quoted.
func blockStyle(n *yamlv3.Node, restyle bool) bool {
	found := false
	switch n.Kind {
	case yamlv3.ScalarNode:
		escape := n.Tag == "!!str" && printable.String(n.Value) != n.Value
		if restyle {
			n.Style = 0
			if escape {
				n.Style = yamlv3.DoubleQuotedStyle
			}
		}
		return escape
	case yamlv3.MappingNode:
		if restyle {
			sortPairs(n)
		}
	}
	if restyle && n.Kind != yamlv3.DocumentNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		if blockStyle(c, restyle) {
			found = true
		}
	}
	return found
}

// sortPairs orders a mapping's key-value pairs by key.
func sortPairs(n *yamlv3.Node) {
	pairs := make([][2]*yamlv3.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, [2]*yamlv3.Node{n.Content[i], n.Content[i+1]})
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i][0].Value < pairs[j][0].Value })
	n.Content = n.Content[:0]
	for _, p := range pairs {
		n.Content = append(n.Content, p[0], p[1])
	}
}
