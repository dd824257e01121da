package knobs

import (
	"path"
	"slices"
	"strings"
)

// Seen is what a target shows of itself.
type Seen struct {
	// Image and Args (command, then arguments) are those of the container that serves the
	// metrics; both are empty for a target read without its pod (--url, --from-file).
	Image string
	Args  []string
	// Env is the container's environment, by name: a value it gives, or Unknown when the
	// value comes from elsewhere (a ConfigMap, a Secret, a field).
	Env map[string]string
	// Families are the names of the metric families on its page.
	Families map[string]bool
	// Queues are its workqueue and controller names.
	Queues []string
	// Flagz are the flags the process says it runs with (its /flagz), by name without the
	// dashes; nil when they were not read.
	Flagz map[string]string
}

// Match is a recognised controller.
type Match struct {
	Controller *Controller
	// By is the sign that told it, e.g. `image "ghcr.io/fluxcd/source-controller:v1.4.1"`.
	By    string
	args  []string
	env   map[string]string
	flagz map[string]string
}

// Unknown is an environment variable's value Seen.Env does not know.
const Unknown = "\x00unknown"

// Others is the Seen.Env entry that stands for every variable it does not name: Unknown when
// the container takes variables wholesale from elsewhere (envFrom).
const Others = "*"

// Recognise returns the first controller of the table one of whose signs s shows; ok is false
// when s shows none.
func Recognise(s Seen) (m Match, ok bool) {
	cs := table().Controllers
	for i := range cs {
		if by := signOf(&cs[i].Signs, s); by != "" {
			return Match{Controller: &cs[i], By: by, args: s.Args, env: s.Env, flagz: s.Flagz}, true
		}
	}
	return Match{}, false
}

func signOf(sg *Signs, s Seen) string {
	if repo := Repository(s.Image); repo != "" {
		for _, want := range sg.Images {
			if repo == want || strings.HasSuffix(repo, "/"+want) {
				return "image " + s.Image
			}
		}
	}
	if len(s.Args) > 0 && slices.Contains(sg.Binaries, path.Base(s.Args[0])) {
		return "program " + s.Args[0]
	}
	for _, f := range sg.Metrics {
		if s.Families[f] {
			return "metric " + f
		}
	}
	for _, q := range sg.Queues {
		if slices.Contains(s.Queues, q) {
			return "queue " + q
		}
	}
	return ""
}

// Repository is an image reference without its tag and digest.
func Repository(image string) string {
	if i := strings.IndexByte(image, '@'); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndexByte(image, ':'); i > strings.LastIndexByte(image, '/') {
		image = image[:i]
	}
	return image
}

// Advise returns the knob of the matched controller for a finding of check about queue ("" for
// a finding about the whole process); ok is false when the controller has none for it.
func (m Match) Advise(check, queue string) (a Advice, ok bool) {
	if m.Controller == nil {
		return Advice{}, false
	}
	for _, k := range m.Controller.Knobs {
		if !slices.Contains(table().checksOf(k.Sizes), check) || len(k.Queues) > 0 && !slices.Contains(k.Queues, queue) {
			continue
		}
		a = Advice{Controller: m.Controller.Title, RecognisedBy: m.By, Note: k.Note}
		for _, f := range k.Flags {
			v, _ := m.current(f.Flag)
			a.Flags = append(a.Flags, Setting{Flag: f.Flag, Default: f.Default, Current: v})
		}
		return a, true
	}
	return Advice{}, false
}

// FlagValue is the value args give flag ("--name=value" or "--name value"; the last one counts,
// as with pflag), or "" when they do not set it. Names compare as pflag's word-separator
// normalisation does: "--concurrent_rc_syncs" is "--concurrent-rc-syncs".
func FlagValue(args []string, flag string) string {
	v, _ := flagSet(args, flag)
	return v
}

func flagName(s string) string {
	return strings.ReplaceAll(strings.TrimLeft(s, "-"), "_", "-")
}
