package cmd

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The pages of docs/commands are generated from the command tree by CommandPages, so that
// what they say is what -h says; a unit test keeps the files equal to it
// (go test ./pkg/cmd -run TestCommandPages -update rewrites them).

// seeAlso names, per page, the hand-written pages that explain the command at length (paths
// relative to docs/commands).
var seeAlso = map[string][]string{
	"README":     {"../../README.md", "../guide/output.md", "../rbac.md"},
	"queues":     {"../guide/queues.md", "../guide/targets.md", "../guide/prometheus.md", "../guide/numbers.md", "../json.md"},
	"targets":    {"../guide/targets.md", "../rbac.md"},
	"top":        {"../guide/top.md", "../guide/queues.md", "../guide/targets.md"},
	"report":     {"../guide/report.md", "../findings.md", "../guide/checks.md", "../guide/slis.md", "../capacity.md", "../guide/prometheus.md", "../ci.md", "../json.md"},
	"snapshot":   {"../guide/snapshots.md", "../guide/report.md"},
	"diff":       {"../guide/snapshots.md", "../ci.md", "../json.md"},
	"rules":      {"../guide/rules.md", "../alerts.md"},
	"explain":    {"../findings.md", "../guide/checks.md", "../capacity.md"},
	"operator":   {"../operator.md"},
	"version":    {"../guide/install.md"},
	"completion": {"../guide/install.md#shell-completion"},
}

// CommandPages renders the plugin's command tree, root, as one Markdown page per verb, keyed
// by file name: "README.md" for kubectl ctrldiag itself (its global flags and the list of
// verbs), then "<verb>.md". operator is the reference operator binary's root command: the
// plugin hands `operator` over to that binary, so its page is made from the binary's tree.
func CommandPages(root, operator *cobra.Command) map[string]string {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	pages := map[string]string{}
	var verbs []verb
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		v := verb{name: c.Name(), cmd: c}
		if c.Name() == "operator" && operator != nil {
			operator.InitDefaultHelpCmd()
			v.cmd = operator
		}
		verbs = append(verbs, v)
	}
	pages["README.md"] = rootPage(root, verbs)
	for _, v := range verbs {
		pages[v.name+".md"] = commandPage(v.cmd, v.name)
	}
	return pages
}

// verb is a command of the plugin, by the name it is typed with (the operator's tree comes
// from its own binary, whose root is named after that binary).
type verb struct {
	name string
	cmd  *cobra.Command
}

func rootPage(root *cobra.Command, verbs []verb) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	p("# %s", root.DisplayName())
	p("")
	p("<!-- Generated from the command tree by go test ./pkg/cmd -run TestCommandPages -update; do not edit. -->")
	p("")
	p("%s.", root.Short)
	p("")
	p("%s", paragraphs(root.Long))
	p("")
	p("```")
	p("%s [command]", root.DisplayName())
	p("```")
	p("")
	examples(&b, root)
	p("## Commands")
	p("")
	p("| command | what it does |")
	p("|---|---|")
	for _, v := range verbs {
		p("| [`%s`](%s.md) | %s |", v.name, v.name, cell(v.cmd.Short))
	}
	p("")
	p("## Global flags")
	p("")
	p("Every command takes these flags: kubectl's connection flags, `-A` and `-v`.")
	p("")
	flagTable(&b, root.PersistentFlags())
	seeAlsoLine(&b, "README")
	return b.String()
}

func commandPage(c *cobra.Command, name string) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	p("# %s", c.CommandPath())
	p("")
	p("<!-- Generated from the command's help by go test ./pkg/cmd -run TestCommandPages -update; do not edit. -->")
	p("")
	section(&b, c, "##")
	for _, sub := range subcommands(c) {
		p("## %s", sub.CommandPath())
		p("")
		section(&b, sub, "###")
	}
	seeAlsoLine(&b, name)
	return b.String()
}

// section writes what -h says of one command: Short, Long, usage, aliases, examples, its own
// flags and its subcommands.
func section(b *strings.Builder, c *cobra.Command, h string) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format+"\n", a...) }
	p("%s.", strings.TrimSuffix(c.Short, "."))
	p("")
	if c.Long != "" {
		p("%s", paragraphs(c.Long))
		p("")
	}
	p("```")
	p("%s", c.UseLine())
	p("```")
	p("")
	if len(c.Aliases) > 0 {
		p("Aliases: %s", "`"+strings.Join(c.Aliases, "`, `")+"`")
		p("")
	}
	examples(b, c)
	if subs := subcommands(c); len(subs) > 0 {
		p("Subcommands:")
		p("")
		for _, sub := range subs {
			p("- `%s`: %s", sub.Name(), sub.Short)
		}
		p("")
	}
	own := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Name != "help" && (c.HasParent() || c.PersistentFlags().Lookup(f.Name) == nil) {
			own.AddFlag(f)
		}
	})
	if own.HasFlags() {
		p("%s Flags", h)
		p("")
		flagTable(b, own)
	}
	if c.HasParent() {
		p("Global flags (`--kubeconfig`, `--context`, `-n`, `-A`, `-v`, ...): [kubectl ctrldiag](README.md#global-flags).")
		p("")
	}
}

// subcommands are c's commands a user can see, help left out.
func subcommands(c *cobra.Command) []*cobra.Command {
	var subs []*cobra.Command
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && sub.Name() != "help" {
			subs = append(subs, sub)
		}
	}
	return subs
}

func examples(b *strings.Builder, c *cobra.Command) {
	if c.Example == "" {
		return
	}
	fmt.Fprintf(b, "Examples:\n\n```sh\n")
	for _, l := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
		fmt.Fprintln(b, strings.TrimRight(strings.TrimPrefix(l, "  "), " "))
	}
	fmt.Fprintf(b, "```\n\n")
}

// flagTable writes one row per visible flag, by name: the flag (and its shorthand), its
// type, its default (when it is not the type's zero value) and its usage.
func flagTable(b *strings.Builder, fs *pflag.FlagSet) {
	var rows []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Name != "help" {
			rows = append(rows, f)
		}
	})
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	fmt.Fprintln(b, "| flag | type | default | meaning |")
	fmt.Fprintln(b, "|---|---|---|---|")
	for _, f := range rows {
		name := "`--" + f.Name + "`"
		if f.Shorthand != "" {
			name = "`-" + f.Shorthand + "`, " + name
		}
		typ, usage := pflag.UnquoteUsage(f)
		if typ == "" {
			typ = f.Value.Type()
		}
		def := ""
		if d := defaultOf(f); d != "" {
			def = "`" + d + "`"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, typ, def, cell(usage))
	}
	fmt.Fprintln(b)
}

// defaultOf is a flag's default as -h shows it, empty for the zero value of its type; a path
// under the home directory starts with ~.
func defaultOf(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "false", "0", "[]", "0s":
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(f.DefValue, home+"/") {
		return "~" + strings.TrimPrefix(f.DefValue, home)
	}
	return f.DefValue
}

// paragraphs turns help text, wrapped for a terminal, into Markdown paragraphs: lines of one
// paragraph are joined, and the characters Markdown would read as markup there (\ ` * < >)
// are escaped. A paragraph laid out in columns or indented (a list of scenarios, a command to
// type) is kept as it is, in a text block.
func paragraphs(s string) string {
	var out []string
	for _, para := range strings.Split(strings.Trim(s, "\n"), "\n\n") {
		if preformatted.MatchString(para) {
			out = append(out, "```text\n"+strings.TrimRight(para, " \n")+"\n```")
			continue
		}
		var lines []string
		for _, l := range strings.Split(para, "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
		out = append(out, escape(strings.Join(lines, " ")))
	}
	return strings.Join(out, "\n\n")
}

// preformatted matches help text laid out by hand: an indented line, or columns.
var preformatted = regexp.MustCompile(`(?m)^[ \t]+\S|\S {3,}\S`)

// cell is text for one cell of a Markdown table.
func cell(s string) string {
	return strings.ReplaceAll(escape(strings.Join(strings.Fields(s), " ")), "|", `\|`)
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "<", `&lt;`, ">", `&gt;`)

func escape(s string) string { return markdownEscaper.Replace(s) }

func seeAlsoLine(b *strings.Builder, name string) {
	links := seeAlso[name]
	if len(links) == 0 {
		return
	}
	var parts []string
	for _, l := range links {
		title := strings.TrimSuffix(l[strings.LastIndex(l, "/")+1:], ".md")
		if i := strings.Index(title, ".md#"); i >= 0 {
			title = title[:i]
		}
		parts = append(parts, "["+title+"]("+l+")")
	}
	fmt.Fprintf(b, "See also: %s.\n", strings.Join(parts, ", "))
}
