package operator

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"k8s.io/klog/v2"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// logFormats are the shapes the operator can log in, as the controllers people run do, and
// the logger each is written by.
var logFormats = map[string]func(w io.Writer) logr.Logger{
	// klog's text, as Kubernetes' own components (the default).
	"klog": func(io.Writer) logr.Logger { return klog.NewKlogr() },
	// kubebuilder's scaffold: zap.Options{Development: true}, the console encoder.
	"zap-console": func(w io.Writer) logr.Logger { return crzap.New(crzap.UseDevMode(true), crzap.WriteTo(w)) },
	// controller-runtime's production zap: JSON lines.
	"zap-json": func(w io.Writer) logr.Logger { return crzap.New(crzap.UseDevMode(false), crzap.WriteTo(w)) },
	"funcr": func(w io.Writer) logr.Logger {
		return funcr.New(func(prefix, args string) { fmt.Fprintln(w, strings.TrimSpace(prefix+" "+args)) }, funcr.Options{LogTimestamp: true})
	},
	"funcr-json": func(w io.Writer) logr.Logger {
		return funcr.NewJSON(func(obj string) { fmt.Fprintln(w, obj) }, funcr.Options{LogTimestamp: true})
	},
	"slog-text": func(w io.Writer) logr.Logger { return logr.FromSlogHandler(slog.NewTextHandler(w, nil)) },
	"slog-json": func(w io.Writer) logr.Logger { return logr.FromSlogHandler(slog.NewJSONHandler(w, nil)) },
}

// logFormatNames are the values of --log-format, sorted.
func logFormatNames() []string {
	return []string{"klog", "zap-console", "zap-json", "funcr", "funcr-json", "slog-text", "slog-json"}
}

// newLogger is the logger of format, writing to w (klog writes to standard error itself).
func newLogger(format string, w io.Writer) (logr.Logger, error) {
	f, ok := logFormats[format]
	if !ok {
		return logr.Logger{}, fmt.Errorf("--log-format %q: want one of %s", format, strings.Join(logFormatNames(), ", "))
	}
	return f(w), nil
}
