package logs

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// reconcileError logs as controller-runtime does when a reconcile fails: "Reconciler error"
// with the controller, the object and the error, through log.
func reconcileError(log logr.Logger) {
	log.WithValues("controller", "configmap-annotator", "controllerGroup", "", "controllerKind", "ConfigMap",
		"ConfigMap", klog.KRef("shop", "work-05"), "namespace", "shop", "name", "work-05", "reconcileID", "6f1c").
		Error(errors.New("sync to backend: dial tcp 10.0.0.9:443: connect: connection refused"), "Reconciler error")
	log.Info("Starting workers", "controller", "configmap-annotator", "worker count", 1)
}

// The shapes controllers really log in, each written by its own library: every one names the
// object that failed, its controller and the error, bare, behind the kubelet's timestamp and
// in the CRI format.
func TestEveryShapeNamesTheFailingObject(t *testing.T) {
	shapes := map[string]func(*bytes.Buffer) logr.Logger{
		// kubebuilder's scaffold: zap.Options{Development: true}, the console encoder.
		"zap console": func(b *bytes.Buffer) logr.Logger { return crzap.New(crzap.UseDevMode(true), crzap.WriteTo(b)) },
		"zap json":    func(b *bytes.Buffer) logr.Logger { return crzap.New(crzap.UseDevMode(false), crzap.WriteTo(b)) },
		"klog text": func(b *bytes.Buffer) logr.Logger {
			return textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(b)))
		},
		"funcr": func(b *bytes.Buffer) logr.Logger {
			return funcr.New(func(prefix, args string) { fmt.Fprintln(b, strings.TrimSpace(prefix+" "+args)) }, funcr.Options{})
		},
		"funcr json": func(b *bytes.Buffer) logr.Logger {
			return funcr.NewJSON(func(obj string) { fmt.Fprintln(b, obj) }, funcr.Options{})
		},
		"slog text": func(b *bytes.Buffer) logr.Logger { return logr.FromSlogHandler(slog.NewTextHandler(b, nil)) },
		"slog json": func(b *bytes.Buffer) logr.Logger { return logr.FromSlogHandler(slog.NewJSONHandler(b, nil)) },
	}
	for name, newLogger := range shapes {
		var b bytes.Buffer
		reconcileError(newLogger(&b))
		raw := b.String()
		for prefix, lines := range map[string]string{
			"bare":    raw,
			"kubelet": prefixed(raw, "2026-11-26T11:00:30.123456789Z "),
			"CRI":     prefixed(raw, "2026-11-26T11:00:30.123456789Z stderr F "),
		} {
			l := Parse(strings.NewReader(lines), Options{Now: now})
			if len(l.Failures) != 1 {
				t.Errorf("%s, %s: failures %+v in:\n%s", name, prefix, l.Failures, lines)
				continue
			}
			f := l.Failures[0]
			if f.Object != "shop/work-05" || f.Controller != "configmap-annotator" || f.Count != 1 ||
				f.Error != "sync to backend: dial tcp 10.0.0.9:443: connect: connection refused" ||
				f.Last.IsZero() != (prefix == "bare" && strings.HasPrefix(name, "funcr")) { // funcr writes no time

				t.Errorf("%s, %s: %+v in:\n%s", name, prefix, f, lines)
			}
		}
	}
}

// prefixed puts p before every line of s.
func prefixed(s, p string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = p + l
	}
	return strings.Join(lines, "\n") + "\n"
}
