// Package printable makes text from outside (label values such as queue and controller names,
// namespaces, pod names, servers' error messages and bodies) safe to print on a terminal or in
// a CI log: control characters, bidi overrides and invalid UTF-8 become visible escapes, so
// that no such text can move the cursor, clear the screen, retitle the terminal, reorder what
// is shown or start a line of its own (a CI workflow command such as "::error").
//
// It also holds the two other things every printed sentence needs: counts in English
// (Plural: "1 item", "3 items") and text wrapped to a width (WrapLines, WrapHanging).
package printable
