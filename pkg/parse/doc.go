// Package parse reads a Prometheus text exposition page into metric families.
//
// It streams the page through a line filter that keeps only the TYPE and sample lines of the
// families the caller wants, so that a large kube-apiserver page is never held whole. HELP
// text is printed nowhere and never kept; a line the parser does not read is skipped without
// being held, however long, and a line it reads is bounded by MaxLineBytes.
// The kept lines are read by a fast parser for the form every exporter writes; whatever it
// is not sure of goes to expfmt's text parser instead, so results and errors are always
// exactly expfmt's (the tests and a fuzzer compare the two). A Selector shares the keep
// decisions between the pages of one command.
//
// A histogram family its reader needs only in part (Reduce: some labels, some series left
// out) can be read reduced: its lines go to a reducer as they stream by instead of to the
// parser, and come out summed the way the reader sums them, so that the reader's figures are
// exactly those of the whole family (a test and a fuzzer compare the two).
//
// An OpenMetrics page ends at its "# EOF" line: the filter reads nothing after it. A page
// without a single sample line (empty, blank, or comments only) fails with an EmptyPageError:
// it is no metrics page, and must not read as one without the wanted families.
//
// The lines the filter drops are not parsed but checked, cheaply: a page that is not text
// exposition at all (an HTML or JSON answer, binary bytes, the protobuf format) fails with a
// NotTextError that shows what came back, rather than reading as a page without the wanted
// families. The check never rejects a page expfmt reads (a fuzzer holds it to that).
package parse
