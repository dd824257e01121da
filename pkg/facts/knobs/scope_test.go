package knobs

import "testing"

// A controller knobs does not know is restricted to namespaces by the usual flags and
// environment variables, unless --watch-all-namespaces says those flags only name its own.
func TestRestricted(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, ""},
		{[]string{"--leader-elect", "--metrics-bind-address=:8080"}, nil, ""},
		{[]string{"--namespace=ops"}, nil, "--namespace=ops"},
		{[]string{"run", "-n", "ops", "--scenario", "failing"}, nil, "-n=ops"},
		{[]string{"--watch-namespace", "a,b"}, nil, "--watch-namespace=a,b"},
		{[]string{"--namespace="}, nil, ""},
		{[]string{"-n", "ops", "--watch-all-namespaces"}, nil, ""},
		{[]string{"-n", "ops", "--watch-all-namespaces=true"}, nil, ""},
		{[]string{"--watch-all-namespaces=false"}, nil, "--watch-all-namespaces=false"},
		{nil, map[string]string{"WATCH_NAMESPACE": "ops"}, "WATCH_NAMESPACE"},
		{nil, map[string]string{"WATCH_NAMESPACE": Unknown}, "WATCH_NAMESPACE"},
		{nil, map[string]string{"WATCH_NAMESPACE": ""}, ""},
		{nil, map[string]string{Others: Unknown}, ""},
	} {
		if got := Restricted(Seen{Args: tc.args, Env: tc.env}); got != tc.want {
			t.Errorf("args %q env %v: %q, want %q", tc.args, tc.env, got, tc.want)
		}
	}
}
