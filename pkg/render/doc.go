// Package render turns the health model into what users read: view structs with a stable,
// versioned JSON/YAML schema, and kubectl-style plain-column tables. It knows nothing of
// cobra or of how the figures were obtained.
package render
