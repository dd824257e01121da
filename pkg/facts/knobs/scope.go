package knobs

import "strings"

// AllNamespaces says whether the matched controller reconciles its kinds in every namespace:
// the table says it does, and none of the flags that would restrict it is set so in the
// container's arguments. A controller recognised without its arguments (no pod) is taken at
// its default.
func (m Match) AllNamespaces() bool {
	if m.Controller == nil || m.Controller.AllNamespaces == nil {
		return false
	}
	for _, r := range m.Controller.AllNamespaces.Unless {
		v := FlagValue(m.args, r.Flag)
		if v != "" && (r.Value == "" || v == r.Value) {
			return false
		}
	}
	return true
}

// namespaceFlags are the flags by which controllers knobs does not know commonly restrict
// themselves to namespaces (the reference operator's -n among them), and namespaceEnv the
// environment variables (operator-sdk's WATCH_NAMESPACE: empty means every namespace).
var (
	namespaceFlags = []string{"--namespace", "-n", "--namespaces", "--watch-namespace", "--watch-namespaces"}
	namespaceEnv   = []string{"WATCH_NAMESPACE", "WATCH_NAMESPACES"}
)

// allNamespacesFlag, set (bare or true), says the namespace flags only name the controller's
// own namespace (its Lease, its config); set to false it restricts the controller to it.
const allNamespacesFlag = "--watch-all-namespaces"

// Restricted says how a controller that knobs does not know restricts itself to some
// namespaces, as its container shows it: "--namespace=ops", "WATCH_NAMESPACE" (a value the
// container gives, or takes from elsewhere), or "" when nothing it shows restricts it. Its
// RBAC then decides where it may reconcile; its flags win over that.
func Restricted(s Seen) string {
	if v, set := flagSet(s.Args, allNamespacesFlag); set {
		if v == "false" {
			return allNamespacesFlag + "=false"
		}
		return ""
	}
	for _, f := range namespaceFlags {
		if v, _ := flagSet(s.Args, f); v != "" {
			return f + "=" + v
		}
	}
	for _, name := range namespaceEnv {
		if v := s.Env[name]; v != "" {
			return name
		}
	}
	return ""
}

// flagSet is the value of flag in args (the last one given) and whether it is there at all:
// a boolean flag given bare is set with the value "".
func flagSet(args []string, flag string) (string, bool) {
	want := flagName(flag)
	var v string
	var set bool
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if flagName(name) != want {
			continue
		}
		set = true
		switch {
		case hasVal:
			v = val
		case i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && want != flagName(allNamespacesFlag):
			v = args[i+1]
		default:
			v = ""
		}
	}
	return v, set
}

// Unsure says why a controller Restricted keeps in its namespace may in fact reconcile every
// namespace: only variables w could not resolve (a Secret, a ConfigMap that may not be read)
// restrict it. It is "" when something known restricts it, or nothing does.
func Unsure(s Seen, w *WatchEnv) string {
	if w == nil || len(w.Unresolved) == 0 {
		return ""
	}
	r := Restricted(s)
	if r == "" || s.Env[r] != Unknown {
		return ""
	}
	for _, name := range namespaceEnv {
		if v := s.Env[name]; v != "" && v != Unknown {
			return ""
		}
	}
	return strings.Join(w.Notes, "; ")
}
