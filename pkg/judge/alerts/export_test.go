package alerts

import "io"

// Write writes s as `rules -o FORMAT` does: render.Rules, set by writer_test.go. The tests of
// this package that hand a rule file to Prometheus or promtool check what the command
// prints, and render, which writes every output, imports this package.
var Write func(w io.Writer, format string, s Set, meta Meta) error
