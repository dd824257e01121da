//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// podPort is a container port of a pod that a local process stands behind.
type podPort struct {
	Name string
	Port int32
}

// podSpec describes a pod whose containers are played by a local process.
type podSpec struct {
	Namespace, Name     string
	Labels, Annotations map[string]string
	Ports               []podPort
	// MemoryLimit is the container's memory limit (e.g. "150Mi"); "" for none.
	MemoryLimit string
	// Sidecar, when set, names a second container without ports (memory limit 64Mi), which no
	// process plays: its status is the pod's to make up.
	Sidecar string
	// Owner, when set, is the pod's controlling owner ("Deployment", name, uid).
	Owner *podOwner
	// ServiceAccount is the pod's serviceAccountName ("" for none named: default); Args the
	// main container's arguments as the pod shows them (the process's flags that matter).
	ServiceAccount string
	Args           []string
	// Image is the main container's image as the pod shows it ("" for the suite's own): a
	// third-party controller's real image, by which the plugin knows it.
	Image string
	// EnvFrom is the main container's envFrom, as the pod shows it (the process does not get it).
	EnvFrom []map[string]any
	// Command returns the process to start; listen maps each pod port to the address the
	// process must listen on (the pod IP and that port in the cluster's network namespace).
	Command func(listen map[int32]string) []string
}

// podOwner is the object that controls a pod.
type podOwner struct{ Kind, APIVersion, Name, UID string }

// behindPod is a running process that stands behind a Ready pod: the API server's proxy reaches
// it at the pod IP, and kwok's PortForward rule sends `kubectl port-forward` to it.
type behindPod struct {
	*localProcess
	Namespace, Name, IP string
	Listen              map[int32]string
}

// startBehindPod starts spec's process in the cluster's network namespace, creates its pod and
// PortForward rule, and waits until the pod is Ready and the process accepts connections. The
// process is stopped (by pid) and the pod deleted when the test ends.
func startBehindPod(t *testing.T, spec podSpec) *behindPod {
	t.Helper()
	p := &behindPod{Namespace: spec.Namespace, Name: spec.Name, IP: allocatePodIP(t), Listen: map[int32]string{}}
	for _, port := range spec.Ports {
		p.Listen[port.Port] = net.JoinHostPort(p.IP, fmt.Sprint(port.Port))
	}
	p.localProcess = startLocalCRI(t, spec.Name, p.IP, filepath.Join(env.run, "logs", "pod-"+p.Namespace+"-"+p.Name+".cri.log"),
		spec.Command(p.Listen))

	apply(t, p.manifest(spec))
	t.Cleanup(func() {
		cmd := exec.Command("kubectl", "-n", p.Namespace, "delete", "pod,portforward,logs.kwok.x-k8s.io", p.Name,
			"--ignore-not-found", "--wait=false", "--grace-period=0", "--force")
		cmd.Env = commandEnv(env.kubeconfig)
		_ = cmd.Run()
	})
	eventually(t, 60*time.Second, "pod "+p.Name+" Ready", func() error {
		r := kubectl(t, "-n", p.Namespace, "get", "pod", p.Name, "-o",
			`jsonpath={.status.podIP} {.status.conditions[?(@.type=="Ready")].status}`)
		if want := p.IP + " True"; strings.TrimSpace(r.Stdout) != want {
			return fmt.Errorf("pod shows %q, want %q %s", r.Stdout, want, r.Stderr)
		}
		return nil
	})
	for _, addr := range p.Listen {
		p.waitListening(t, addr)
	}
	return p
}

// allocatePodIP takes a new address for a process that stands behind pods (hack/cluster/pod-ip.sh).
func allocatePodIP(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(env.clusterRoot, "hack/cluster/pod-ip.sh")).Output()
	if err != nil {
		t.Fatalf("hack/cluster/pod-ip.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// localProcess is a process of the test that plays the containers of pods, started in the
// cluster's network namespace.
type localProcess struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	// criPath is the output in the CRI log format ("" for none).
	criPath string
}

// startLocal starts argv in the cluster's network namespace with POD_IP=ip. It is stopped (by
// pid) when the test ends, and its log shown when the test failed.
func startLocal(t *testing.T, name, ip string, argv []string) *localProcess {
	t.Helper()
	return startLocalCRI(t, name, ip, "", argv)
}

// startLocalCRI is startLocal that also writes the process's output to criPath (when not "")
// in the CRI log format, the file a kwok Logs object names for `kubectl logs` of a pod.
func startLocalCRI(t *testing.T, name, ip, criPath string, argv []string) *localProcess {
	t.Helper()
	if env.netns != "" {
		argv = append([]string{"ip", "netns", "exec", env.netns}, argv...)
	}
	p := &localProcess{name: name, logPath: filepath.Join(t.TempDir(), name+".log")}
	logFile, err := os.Create(p.logPath)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Env = commandEnv(env.kubeconfig, "POD_IP="+ip)
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	var cri *criFile
	if criPath != "" {
		cri = createCRI(t, criPath)
		p.criPath = criPath
		p.cmd.Stdout, p.cmd.Stderr = io.MultiWriter(logFile, cri.stdout), io.MultiWriter(logFile, cri.stderr)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %v: %v", argv, err)
	}
	t.Cleanup(func() {
		p.Stop(t)
		cri.close()
		logFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(p.logPath)
			t.Logf("--- log of the process behind pod(s) %s:\n%s", p.name, tail(string(b), 40))
		}
	})
	return p
}

// waitListening waits until the process accepts connections at addr.
func (p *localProcess) waitListening(t *testing.T, addr string) {
	t.Helper()
	eventually(t, 30*time.Second, "the process to listen on "+addr, func() error {
		if p.cmd.ProcessState != nil {
			return fmt.Errorf("the process exited: %s", p.cmd.ProcessState)
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err
	})
}

// waitLogged waits until a line of the process's log holds every one of parts: a controller
// that logs when it is ready to work says so sooner than any status it writes.
func (p *localProcess) waitLogged(t *testing.T, timeout time.Duration, what string, parts ...string) {
	t.Helper()
	eventually(t, timeout, what, func() error {
		b, err := os.ReadFile(p.logPath)
		if err != nil {
			return err
		}
	lines:
		for _, l := range strings.Split(string(b), "\n") {
			for _, part := range parts {
				if !strings.Contains(l, part) {
					continue lines
				}
			}
			return nil
		}
		return fmt.Errorf("no line of its log holds %q", parts)
	})
}

// Stop ends the process: SIGTERM, then SIGKILL after 10 seconds. It returns the exit error.
func (p *localProcess) Stop(t *testing.T) error {
	if p.cmd.Process == nil || p.cmd.ProcessState != nil {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
		return fmt.Errorf("process behind pod %s did not stop within 10s of SIGTERM", p.name)
	}
}

// manifest is the pod (with the IP annotation kwok's pod-ready stage reads) and its PortForward.
func (p *behindPod) manifest(spec podSpec) string {
	annotations := map[string]string{"ctrldiag.dev/pod-ip": p.IP}
	for k, v := range spec.Annotations {
		annotations[k] = v
	}
	var ports []map[string]any
	var forwards []map[string]any
	for _, port := range spec.Ports {
		cp := map[string]any{"containerPort": port.Port}
		if port.Name != "" {
			cp["name"] = port.Name
		}
		ports = append(ports, cp)
		host, hostPort, _ := net.SplitHostPort(p.Listen[port.Port])
		var target int
		fmt.Sscan(hostPort, &target)
		forwards = append(forwards, map[string]any{
			"ports":  []int32{port.Port},
			"target": map[string]any{"address": host, "port": target},
		})
	}
	meta := map[string]any{"name": p.Name, "namespace": p.Namespace, "labels": spec.Labels, "annotations": annotations}
	if o := spec.Owner; o != nil {
		meta["ownerReferences"] = []map[string]any{{"apiVersion": o.APIVersion, "kind": o.Kind, "name": o.Name, "uid": o.UID, "controller": true}}
	}
	podSpec := map[string]any{
		"nodeName":                      "ctrldiag-node",
		"terminationGracePeriodSeconds": 0,
		"containers":                    containers(spec, ports),
	}
	if spec.ServiceAccount != "" {
		podSpec["serviceAccountName"] = spec.ServiceAccount
		podSpec["automountServiceAccountToken"] = false
	}
	pod := map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": meta,
		"spec":     podSpec,
	}
	forward := map[string]any{
		"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "PortForward",
		"metadata": map[string]any{"name": p.Name, "namespace": p.Namespace},
		"spec":     map[string]any{"forwards": forwards},
	}
	a, _ := json.Marshal(pod)
	b, _ := json.Marshal(forward)
	out := string(a) + "\n" + string(b) + "\n"
	if p.localProcess == nil || p.criPath == "" {
		// Another pod in front of a process (alsoBehind), or a process without a CRI log:
		// no log to serve.
		return out
	}
	c, _ := json.Marshal(map[string]any{
		"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Logs",
		"metadata": map[string]any{"name": p.Name, "namespace": p.Namespace},
		"spec":     map[string]any{"logs": []map[string]any{{"containers": []string{"main"}, "logsFile": p.criPath, "follow": true}}},
	})
	return out + string(c) + "\n"
}

func containers(spec podSpec, ports []map[string]any) []map[string]any {
	out := []map[string]any{container(spec, ports)}
	if spec.Sidecar != "" {
		out = append(out, map[string]any{"name": spec.Sidecar, "image": "ctrldiag.dev/sidecar:test",
			"resources": map[string]any{"limits": map[string]any{"memory": "64Mi"}}})
	}
	return out
}

func container(spec podSpec, ports []map[string]any) map[string]any {
	c := map[string]any{"name": "main", "image": "ctrldiag.dev/behind-pod:test", "ports": ports}
	if spec.Image != "" {
		c["image"] = spec.Image
	}
	if len(spec.Args) > 0 {
		c["args"] = spec.Args
	}
	if len(spec.EnvFrom) > 0 {
		c["envFrom"] = spec.EnvFrom
	}
	if spec.MemoryLimit != "" {
		c["resources"] = map[string]any{"limits": map[string]any{"memory": spec.MemoryLimit}}
	}
	return c
}

func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

// operatorBehindPod starts the reference operator in scenario behind pod name of ns (label
// app=ctrldiag-demo, memory limit 150Mi, metrics on port 8080 named http-metrics), with more
// flags of `operator run` if given.
func operatorBehindPod(t *testing.T, ns, name, scenario string, flags ...string) *behindPod {
	t.Helper()
	return startBehindPod(t, podSpec{Namespace: ns, Name: name,
		Labels: map[string]string{"app": "ctrldiag-demo"}, MemoryLimit: "150Mi",
		Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return append([]string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
				"--scenario", scenario, "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}, flags...)
		}})
}
