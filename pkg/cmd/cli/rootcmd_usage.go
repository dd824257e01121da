package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// helpWidth is the width of -h: a terminal's default, so that help reads without reflowing.
const helpWidth = 80

// flagColumn is where a flag's description starts; a longer flag puts it on its own line
// below, as GNU tools do.
const flagColumn = 32

// setHelp makes -h of every command fit helpWidth: the long description reflowed, the
// commands and flags in two columns whose descriptions wrap under themselves. The content is
// cobra's own (the same sections in the same order); only the layout differs.
func setHelp(root *cobra.Command) {
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		w := c.OutOrStdout()
		text := c.Long
		if text == "" {
			text = c.Short
		}
		if text = strings.TrimSpace(text); text != "" {
			fmt.Fprintln(w, reflow(text, helpWidth))
			fmt.Fprintln(w)
		}
		if c.Runnable() || c.HasSubCommands() {
			_ = writeUsage(w, c)
		}
	})
	root.SetUsageFunc(func(c *cobra.Command) error { return writeUsage(c.OutOrStderr(), c) })
}

// writeUsage is cobra's usage text laid out within helpWidth.
func writeUsage(w io.Writer, c *cobra.Command) error {
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nAvailable Commands:")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				b.WriteString("\n" + strings.TrimRight(twoColumns("  "+sub.Name(), sub.Short, 2+sub.NamePadding()+1), "\n"))
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\nFlags:\n" + flagList(c.LocalFlags()))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\nGlobal Flags:\n" + flagList(c.InheritedFlags()))
	}
	if c.HasHelpSubCommands() {
		b.WriteString("\n\nAdditional help topics:")
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() {
				b.WriteString("\n" + strings.TrimRight(twoColumns("  "+sub.CommandPath(), sub.Short, 2+sub.CommandPathPadding()+1), "\n"))
			}
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString(fmt.Sprintf("\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath()))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// flagList is pflag's list of fs (the same names, types and defaults), each description
// starting at flagColumn and wrapped within helpWidth.
func flagList(fs *pflag.FlagSet) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(fs.FlagUsagesWrapped(0), "\n"), "\n") {
		name, desc := splitFlagLine(line)
		b.WriteString(twoColumns(name, desc, flagColumn))
	}
	return strings.TrimRight(b.String(), "\n")
}

// splitFlagLine splits a line of pflag's list into the flag ("  -o, --output string") and its
// description: pflag separates them by at least two blanks, and a flag holds single ones only.
func splitFlagLine(line string) (string, string) {
	const lead = 6 // "  -o, " or six blanks
	if len(line) <= lead {
		return line, ""
	}
	i := strings.Index(line[lead:], "  ")
	if i < 0 {
		return line, ""
	}
	return line[:lead+i], strings.TrimSpace(line[lead+i:])
}

// twoColumns is name, then text wrapped within helpWidth from column col (on the next line
// when name reaches it).
func twoColumns(name, text string, col int) string {
	switch {
	case strings.TrimSpace(text) == "":
		return name + "\n"
	case len(name)+2 > col:
		indent := strings.Repeat(" ", col)
		return name + "\n" + printable.WrapLines(text, indent, indent, helpWidth)
	}
	return printable.WrapHanging(name+strings.Repeat(" ", col-len(name)), text, helpWidth)
}

// reflow wraps each paragraph of text within width. A paragraph is a run of lines up to a
// blank one; a line that starts with a blank or a list mark starts a new one, keeps its
// indent and wraps under its own text.
func reflow(text string, width int) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.TrimRight(hangingLine(strings.Join(para, " "), width), "\n"))
			para = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			flush()
			out = append(out, "")
		case len(para) > 0 && continuesItem(para[0], line):
			para = append(para, strings.TrimSpace(line))
		case startsItem(line):
			flush()
			para = []string{line}
		default:
			para = append(para, strings.TrimSpace(line))
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// continuesItem reports whether line goes on with the list entry first starts: indented past
// its mark, with no mark of its own.
func continuesItem(first, line string) bool {
	text := strings.TrimLeft(first, " \t")
	if !strings.HasPrefix(text, "- ") && !strings.HasPrefix(text, "* ") {
		return false
	}
	rest := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") {
		return false
	}
	return len(line)-len(rest) > len(first)-len(text)
}

// startsItem reports whether line starts an item of its own: indented, or a list entry.
func startsItem(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ")
}

// hangingLine wraps a line within width, its further lines indented under the first's text
// (after its blanks and a list mark).
func hangingLine(line string, width int) string {
	text := strings.TrimLeft(line, " \t")
	lead := line[:len(line)-len(text)]
	for _, mark := range []string{"- ", "* "} {
		if strings.HasPrefix(text, mark) {
			lead += mark
			text = text[len(mark):]
		}
	}
	return printable.WrapHanging(lead, text, width)
}
