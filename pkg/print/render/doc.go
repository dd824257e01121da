// Package render lays out what the run layer returns (the queue list, the target list, the
// report): kubectl-style plain-column tables, text, Markdown, or a self-contained HTML page whose
// charts are inline SVG laid out in Go; Write hands JSON, YAML (a stable, versioned schema) and
// kubectl's forms to pkg/print/printer. It knows nothing of cobra or of how the figures were obtained.
// Every view prints text from outside (label values, servers' messages) through
// printable.Value, so that no control character reaches a terminal or a CI log raw; JSON and
// YAML escape them themselves, and -o github escapes in the way the Actions runner reads.
package render
