package source

// Scope says where targets were looked for, for the messages that depend on it.
type Scope struct {
	// Cluster is true when a cluster is read (not only --url and --from-file).
	Cluster bool
	// Namespace is the namespace looked in; "" for all.
	Namespace string
	Selector  string
	// Label, when set, is what String says (a source that is not a cluster or pages).
	Label string
}

// String is the scope in the report's words.
func (s Scope) String() string {
	switch {
	case s.Label != "":
		return s.Label
	case !s.Cluster:
		return "metrics read directly (--url, --from-file)"
	case s.Namespace == "":
		return "all namespaces"
	}
	return "namespace " + s.Namespace
}
