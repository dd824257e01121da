//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// auditEvent is the part of an audit log line the read-only check reads.
type auditEvent struct {
	AuditID    string `json:"auditID"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
	} `json:"objectRef"`
	Stage string `json:"stage"`
}

// mutations returns the requests of user in events that change the cluster. Allowed, because
// they change nothing stored: SelfSubjectAccessReviews (the RBAC pre-checks), pod port-forward
// (a stream; POST for SPDY) and, only when tokenRequest is true, serviceaccounts/token
// (--token-from-sa mints a short-lived token).
func mutations(events []auditEvent, user string, tokenRequest bool) []string {
	var out []string
	for _, e := range events {
		if e.User.Username != user || e.Stage != "ResponseComplete" {
			continue
		}
		switch e.Verb {
		case "get", "list", "watch":
			continue
		}
		if r := e.ObjectRef; r != nil {
			switch {
			case r.Resource == "selfsubjectaccessreviews",
				r.Resource == "pods" && r.Subresource == "portforward",
				tokenRequest && r.Resource == "serviceaccounts" && r.Subresource == "token":
				continue
			}
		}
		out = append(out, e.Verb+" "+e.RequestURI)
	}
	return out
}

// auditSince reads the audit log's events from offset on (from the start of a rotated log).
func auditSince(t *testing.T, path string, offset int64) []auditEvent {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the cluster's audit log: %v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() < offset {
		offset = 0 // rotated
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var events []auditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e auditEvent
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			events = append(events, e)
		}
	}
	return events
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the cluster's audit log: %v", err)
	}
	return st.Size()
}

// certKubeconfig makes a client certificate for user, signed by the cluster CA, and a
// kubeconfig that uses it.
func certKubeconfig(t *testing.T, user string) string {
	t.Helper()
	dir := t.TempDir()
	pki := filepath.Join(env.run, "pki")
	key, csr, crt := filepath.Join(dir, "user.key"), filepath.Join(dir, "user.csr"), filepath.Join(dir, "user.crt")
	for _, args := range [][]string{
		{"req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=" + user},
		{"x509", "-req", "-in", csr, "-CA", filepath.Join(pki, "ca.crt"), "-CAkey", filepath.Join(pki, "ca.key"),
			"-CAcreateserial", "-CAserial", filepath.Join(dir, "ca.srl"), "-out", crt, "-days", "1"},
	} {
		if out, err := exec.Command("openssl", args...).CombinedOutput(); err != nil {
			t.Fatalf("openssl %s: %v\n%s", args[0], err, out)
		}
	}
	return userKubeconfig(t, user, "--client-certificate", crt, "--client-key", key, "--embed-certs")
}

// queues, targets and report (when the binary has it) issue no mutating request, as the
// audit log of the API server records them; TokenRequest only with --token-from-sa. The user
// may do anything (cluster-admin), so nothing but the plugin keeps it read-only. The check is
// shown to catch a write: the same user then creates a ConfigMap, and it must be reported.
func TestReadOnlyByAudit(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	user := fmt.Sprintf("ctrldiag-audit-%d", time.Now().UnixNano()%1e6)
	mustKubectl(t, "create", "clusterrolebinding", user, "--clusterrole=cluster-admin", "--user="+user)
	t.Cleanup(func() { kubectl(t, "delete", "clusterrolebinding", user) })
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "metrics-reader")
	kubeconfig := certKubeconfig(t, user)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	startBehindPod(t, podSpec{Namespace: ns, Name: "plain", Ports: []podPort{{Name: "metrics", Port: 8080}},
		Command: func(l map[int32]string) []string { return []string{env.servepage, "--listen", l[8080], "--file", page} }})

	audit := filepath.Join(env.run, "logs/audit.log")
	commands := [][]string{
		{"queues", "-A", "--include-apiserver", "--interval", "1s"},
		{"queues", "-n", ns, "--via", "port-forward", "--interval", "0"},
		{"queues", "-n", ns, "--via", "proxy", "--interval", "0", "-o", "json"},
		{"targets", "-A", "-o", "wide"},
		{"report", "-A", "--interval", "1s"},
	}
	for _, args := range commands {
		if args[0] == "report" && runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "--help").Code != 0 {
			t.Logf("this build has no report command: not checked")
			continue
		}
		offset := fileSize(t, audit)
		r := runAs(t, kubeconfig, "kubectl", append([]string{"ctrldiag"}, args...)...)
		// queues -A exits 1 when a pod of another test cannot be read meanwhile.
		if r.Code != 0 && !(r.Code == 1 && args[0] == "queues" && args[1] == "-A" && strings.Contains(r.Stderr, "could not be read completely")) {
			t.Errorf("kubectl ctrldiag %s:\n%s", strings.Join(args, " "), r)
		}
		var got []auditEvent
		eventually(t, 10*time.Second, "the plugin's requests in the audit log", func() error {
			got = auditSince(t, audit, offset)
			for _, e := range got {
				if e.User.Username == user {
					return nil
				}
			}
			return fmt.Errorf("no request of %s yet", user)
		})
		if m := mutations(got, user, false); len(m) > 0 {
			t.Errorf("kubectl ctrldiag %s changed the cluster:\n  %s", strings.Join(args, " "), strings.Join(m, "\n  "))
		}
	}

	// --token-from-sa may mint a token, nothing else; without the flag a TokenRequest is a write.
	offset := fileSize(t, audit)
	runAs(t, kubeconfig, "kubectl", "ctrldiag", "queues", "-n", ns, "--token-from-sa", ns+"/metrics-reader", "--interval", "0")
	eventually(t, 10*time.Second, "the TokenRequest in the audit log", func() error {
		events := auditSince(t, audit, offset)
		if m := mutations(events, user, true); len(m) > 0 {
			t.Fatalf("queues --token-from-sa changed the cluster:\n  %s", strings.Join(m, "\n  "))
		}
		if m := mutations(events, user, false); len(m) != 1 || !strings.Contains(m[0], "/serviceaccounts/metrics-reader/token") {
			return fmt.Errorf("want exactly the TokenRequest, got %v", m)
		}
		return nil
	})

	// The check catches a write by this user.
	offset = fileSize(t, audit)
	if r := runAs(t, kubeconfig, "kubectl", "-n", ns, "create", "configmap", "written-by-"+user); r.Code != 0 {
		t.Fatalf("%s", r)
	}
	eventually(t, 10*time.Second, "the write in the audit log", func() error {
		if m := mutations(auditSince(t, audit, offset), user, false); len(m) != 1 || !strings.HasPrefix(m[0], "create /api/v1/namespaces/"+ns+"/configmaps") {
			return fmt.Errorf("the check must report the ConfigMap creation, got %v", m)
		}
		return nil
	})
}
