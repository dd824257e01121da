// Package parse reads a Prometheus text exposition page into metric families.
//
// It streams the page through a line filter that keeps only the HELP, TYPE and sample lines
// of the families the caller wants, and hands the rest to expfmt's text parser. On large
// kube-apiserver pages the filter makes parsing many times faster and keeps memory small,
// because the page is never held whole.
package parse
