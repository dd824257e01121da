package render

import (
	"strings"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// maxTroubles bounds the controllers the human formats' summary lists; the rest are counted,
// and -o json|yaml hold them all.
const maxTroubles = 5

// summaryWidth is the width of the text summary's lines: a name longer than that is the only
// thing that may pass it.
const summaryWidth = 80

// shownTroubles are the controllers the summary lists and how many more there are.
func shownTroubles(s view.Summary) ([]view.Trouble, int) {
	if len(s.InTrouble) <= maxTroubles {
		return s.InTrouble, 0
	}
	return s.InTrouble[:maxTroubles], len(s.InTrouble) - maxTroubles
}

// moreTroubles is the line after the last controller listed, "" when all are.
func moreTroubles(n int) string {
	if n == 0 {
		return ""
	}
	return "and " + printable.Plural(n, "more controller") + " in trouble: see the findings"
}

// troubleHead is "CRITICAL target queue".
func troubleHead(t view.Trouble) string {
	h := strings.ToUpper(string(t.Severity)) + " " + t.Target
	if t.Queue != "" {
		h += " " + t.Queue
	}
	return h
}

// explainCode is the code the summary points at for an entry: the one its change comes from,
// else its first finding's.
func explainCode(t view.Trouble) string {
	if t.ChangeCode != "" {
		return t.ChangeCode
	}
	if len(t.Codes) == 0 {
		return ""
	}
	return t.Codes[0]
}

// writeTextSummary writes the summary under the text report's header: each controller in
// trouble in at most three lines of at most summaryWidth columns (what is wrong; the cause;
// the change), or the healthy line.
func writeTextSummary(ew *errWriter, s view.Summary) {
	if s.Healthy != "" {
		ew.printf("%s", wrap("Healthy: "+s.Healthy+".", "", summaryWidth))
	}
	shown, more := shownTroubles(s)
	if len(shown) == 0 {
		return
	}
	ew.printf("\nIN TROUBLE, WORST FIRST (kubectl ctrldiag explain CODE says more)\n")
	for _, t := range shown {
		for _, l := range troubleLines(t) {
			ew.printf("%s\n", l)
		}
	}
	if l := moreTroubles(more); l != "" {
		ew.printf("%s\n", fit(l, summaryWidth))
	}
}

// troubleLines are one entry's lines: "SEVERITY target queue: what" when that fits, then the
// cause and the change, each on a line. When the names leave no room for what is wrong, they
// have the first line to themselves, and what is wrong shares the next with the cause where
// both fit. Text too long for its line is cut with "...".
func troubleLines(t view.Trouble) []string {
	head := troubleHead(t)
	cause := ""
	switch {
	case t.Cause != "":
		cause = "cause: " + t.Cause
	case t.Context != "":
		cause = "also: " + t.Context
	}
	var lines []string
	what := t.What
	if utf8.RuneCountInString(head) > summaryWidth && t.Queue != "" {
		// The names are too long for one line: the queue goes to the line of what is wrong.
		head = strings.ToUpper(string(t.Severity)) + " " + t.Target
		what = t.Queue + ": " + t.What
	}
	sep := ": "
	if utf8.RuneCountInString(head) > summaryWidth {
		// Still too long: the target has a line of its own, the severity starts the next.
		lines = append(lines, t.Target)
		head, sep = "  "+strings.ToUpper(string(t.Severity)), " "
	}
	switch first := head + sep + what; {
	case utf8.RuneCountInString(first) <= summaryWidth:
		lines = append(lines, first)
	case sep == " ": // under the target's own line
		lines = append(lines, fit(first, summaryWidth))
	case cause != "" && utf8.RuneCountInString("  "+what+"; "+cause) <= summaryWidth:
		lines = append(lines, head, "  "+what+"; "+cause)
		cause = ""
	default:
		lines = append(lines, head, fit("  "+what, summaryWidth))
	}
	if cause != "" {
		lines = append(lines, fit("  "+cause, summaryWidth))
	}
	if t.Change != "" {
		suffix := ""
		if c := explainCode(t); c != "" {
			suffix = " (" + c + ")"
		}
		lines = append(lines, fit("  change: "+t.Change, summaryWidth-utf8.RuneCountInString(suffix))+suffix)
	}
	return lines
}

// fit cuts s to width columns (runes), ending it with "..." when it was cut: after the last
// clause that fits (before ", ", "; ", ": " or " and ") when one ends past its first third,
// else after the last word that fits when that does, else within the word.
func fit(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	if width < 3 {
		return string(r[:max(width, 0)])
	}
	cut := string(r[:width-3])
	end := -1
	for _, b := range []string{", ", "; ", ": ", " and "} {
		if i := strings.LastIndex(cut+" ", b); i > end {
			end = i
		}
	}
	if end < len(cut)/3 {
		end = strings.LastIndex(cut, " ")
	}
	if trimmed := strings.TrimSpace(cut[:max(end, 0)]); end > 0 && len(trimmed) > len(cut)/3 {
		cut = cut[:end]
	}
	return strings.TrimRight(cut, " ,;:") + "..."
}

// writeMarkdownSummary writes the summary under the Markdown report's verdict.
func writeMarkdownSummary(ew *errWriter, s view.Summary) {
	if s.Healthy != "" {
		ew.printf("\n**Healthy:** %s.\n", md(s.Healthy))
	}
	shown, more := shownTroubles(s)
	if len(shown) == 0 {
		return
	}
	ew.printf("\n**In trouble, worst first:**\n\n")
	for _, t := range shown {
		where := mdCode(t.Target)
		if t.Queue != "" {
			where += " " + mdCode(t.Queue)
		}
		ew.printf("- **%s** %s: %s.", md(strings.ToUpper(string(t.Severity))), where, md(t.What))
		if t.Cause != "" {
			ew.printf(" Cause: %s.", md(t.Cause))
		}
		if t.Context != "" {
			ew.printf(" Also: %s.", md(t.Context))
		}
		if t.Change != "" {
			ew.printf(" Change: %s", md(t.Change))
			if c := explainCode(t); c != "" {
				ew.printf(" (%s)", mdCode("kubectl ctrldiag explain "+c))
			}
			ew.printf(".")
		}
		ew.printf("\n")
	}
	if l := moreTroubles(more); l != "" {
		ew.printf("- %s.\n", md(l))
	}
}
