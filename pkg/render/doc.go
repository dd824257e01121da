// Package render turns the health model into what users read: view structs with a stable,
// versioned JSON/YAML schema, kubectl-style plain-column tables, Markdown, and a self-contained
// HTML page whose charts are inline SVG laid out in Go. It knows nothing of cobra or of how the
// figures were obtained.
package render
