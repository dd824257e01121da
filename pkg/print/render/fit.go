package render

import (
	"strings"
	"unicode/utf8"
)

// DefaultWidth is the width a table or report is laid out in when the terminal does not say
// its own: a terminal's default.
const DefaultWidth = 80

// columnGap is the blank between two columns (kubectl's three spaces).
const columnGap = 3

// fitTable leaves out the columns of a table that do not fit in width, the least needed first:
// drop names them by header, in the order they go. The other columns always stay, so a table
// of long names may still be wider. rows are laid out as text/tabwriter does: each column as
// wide as its widest cell (the header's too), columnGap between two. Of two columns with the
// same header the last goes first.
func fitTable(header []string, rows [][]string, width int, drop []string) ([]string, [][]string) {
	width = widthOr(width)
	widths := columnWidths(header, rows)
	total := -columnGap
	for _, w := range widths {
		total += w + columnGap
	}
	keep := make([]bool, len(header))
	for i := range keep {
		keep[i] = true
	}
	for _, name := range drop {
		if total <= width {
			break
		}
		for i := len(header) - 1; i >= 0; i-- {
			if header[i] == name && keep[i] {
				keep[i] = false
				total -= widths[i] + columnGap
				break
			}
		}
	}
	return kept(header, keep), keptRows(rows, keep)
}

func keptRows(rows [][]string, keep []bool) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = kept(r, keep)
	}
	return out
}

func kept(cells []string, keep []bool) []string {
	out := make([]string, 0, len(cells))
	for i, c := range cells {
		if i >= len(keep) || keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// widthOr is width, or DefaultWidth when the caller has none.
func widthOr(width int) int {
	if width <= 0 {
		return DefaultWidth
	}
	return width
}

// columnWidths are the widths of a table's columns: each its widest cell's, the header's too.
func columnWidths(header []string, rows [][]string) []int {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(cellBreaks.Replace(c)))
			}
		}
	}
	return widths
}

// padLine is a row of cells after indent, each but the last padded to its column's width
// and columnGap, as text/tabwriter lays out kubectl's tables.
func padLine(indent string, cells []string, widths []int) string {
	var b strings.Builder
	b.WriteString(indent)
	for i, c := range cells {
		c = cellBreaks.Replace(c)
		b.WriteString(c)
		if i < len(cells)-1 && i < len(widths) {
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+columnGap))
		}
	}
	return strings.TrimRight(b.String(), " ") + "\n"
}

// padded is a table, its header first, laid out by padLine.
func padded(header []string, rows [][]string) string {
	widths := columnWidths(header, rows)
	var b strings.Builder
	b.WriteString(padLine("", header, widths))
	for _, r := range rows {
		b.WriteString(padLine("", r, widths))
	}
	return b.String()
}

// minCut is the narrowest a cut column is cut to: less says nothing.
const minCut = 16

// cutLast cuts the cells of a table's last column, when its header is name, to what the
// width leaves it (minCut at least), each ending with "..." where it was cut: a message or a
// note, whose start says most.
func cutLast(header []string, rows [][]string, width int, name string) [][]string {
	last := len(header) - 1
	if name == "" || last < 0 || header[last] != name {
		return rows
	}
	widths := columnWidths(header, rows)
	room := widthOr(width)
	for _, w := range widths[:last] {
		room -= w + columnGap
	}
	if room >= widths[last] {
		return rows
	}
	room = max(room, minCut)
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r
		if len(r) == len(header) && utf8.RuneCountInString(r[last]) > room {
			out[i] = append(append([]string(nil), r[:last]...), fit(r[last], room))
		}
	}
	return out
}

// tableWidth is the width of a table laid out by padLine, without its indent.
func tableWidth(header []string, rows [][]string) int {
	total := -columnGap
	for _, w := range columnWidths(header, rows) {
		total += w + columnGap
	}
	return total
}

// records lays out a table too wide for width even without its droppable columns (names
// longer than the room two of them have side by side): each row as its first cell, then one
// line per other cell that says something, "HEADER: value", wrapped under itself.
func records(indent string, header []string, rows [][]string, width int) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(indent + cellBreaks.Replace(r[0]) + "\n")
		for i := 1; i < len(r) && i < len(header); i++ {
			if c := cellBreaks.Replace(r[i]); c != "" && c != "-" {
				b.WriteString(wrap(header[i]+": "+c, indent+"  ", width))
			}
		}
	}
	return b.String()
}
