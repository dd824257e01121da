// Package printable makes text from outside (label values such as queue and controller names,
// namespaces, pod names, servers' error messages and bodies) safe to print on a terminal or in
// a CI log: control characters, bidi overrides and invalid UTF-8 become visible escapes, so
// that no such text can move the cursor, clear the screen, retitle the terminal, reorder what
// is shown or start a line of its own (a CI workflow command such as "::error").
package printable
