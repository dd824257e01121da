// Package parse reads a Prometheus text exposition page into metric families.
//
// It streams the page through a line filter that keeps only the HELP, TYPE and sample lines
// of the families the caller wants, so that a large kube-apiserver page is never held whole.
// The kept lines are read by a fast parser for the form every exporter writes; whatever it
// is not sure of goes to expfmt's text parser instead, so results and errors are always
// exactly expfmt's (the tests and a fuzzer compare the two). A Selector shares the keep
// decisions between the pages of one command.
package parse
