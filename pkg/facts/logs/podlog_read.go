package logs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// PodLogLookback is how long before the window's start failures are read: a failing object's
// retries back off, and its lines with them.
const PodLogLookback = 2 * time.Minute

// PodLogRequest is whose log to read and how much.
type PodLogRequest struct {
	Namespace, Pod, Container string
	// Since is the oldest line asked for; From the start of the window judged (logs.Options).
	Since, From time.Time
	// LimitBytes bounds the log read; Timeout the reading.
	LimitBytes int64
	Timeout    time.Duration
}

// Bounds are the defaults of one reading: 4 MiB within 10s.
const (
	PodLogLimitBytes = 4 << 20
	PodLogTimeout    = 10 * time.Second
)

// ReadPodLog reads and parses the log req names. It never fails: what went wrong is the log's note.
func ReadPodLog(ctx context.Context, client kubernetes.Interface, req PodLogRequest) *Log {
	if req.LimitBytes <= 0 {
		req.LimitBytes = PodLogLimitBytes
	}
	if req.Timeout <= 0 {
		req.Timeout = PodLogTimeout
	}
	now := time.Now()
	base := &Log{Pod: req.Namespace + "/" + req.Pod, Container: req.Container, Since: req.Since, From: req.From, Time: now}
	perm := access.Permission{Verb: "get", Resource: "pods", Subresource: "log", Namespace: req.Namespace, For: "to read the controller's log"}
	missing, err := access.Missing(ctx, client, []access.Permission{perm})
	switch {
	case err != nil:
		base.Note = "not read: " + redact.ExcerptString(err.Error())
		return base
	case len(missing) > 0:
		base.Note = "not read: needs RBAC verb get on pods/log in namespace " + req.Namespace
		return base
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	opts := &corev1.PodLogOptions{Container: req.Container, Timestamps: true, LimitBytes: &req.LimitBytes}
	if !req.Since.IsZero() {
		secs := int64(math.Ceil(now.Sub(req.Since).Seconds()))
		opts.SinceSeconds = &secs
	}
	stream, err := client.CoreV1().Pods(req.Namespace).GetLogs(req.Pod, opts).Stream(ctx)
	if err != nil {
		base.Note = "not read: " + why(ctx, err, req)
		return base
	}
	defer stream.Close()
	l := Parse(io.LimitReader(stream, req.LimitBytes), Options{Since: req.Since, From: req.From, Now: now})
	l.Pod, l.Container, l.Time = base.Pod, base.Container, base.Time
	if l.Bytes >= req.LimitBytes {
		l.Cut = true
		l.Note = fmt.Sprintf("only the first %d KiB of the log since %s were read", req.LimitBytes>>10, req.Since.UTC().Format(time.RFC3339))
	}
	if ctx.Err() != nil {
		l.Note = fmt.Sprintf("the log was cut after %s", req.Timeout)
	}
	return l
}

// why says why the log could not be read.
func why(ctx context.Context, err error, req PodLogRequest) string {
	var status apierrors.APIStatus
	switch {
	case ctx.Err() != nil:
		return fmt.Sprintf("no answer within %s", req.Timeout)
	case apierrors.IsForbidden(err):
		return "needs RBAC verb get on pods/log in namespace " + req.Namespace
	case apierrors.IsNotFound(err):
		return "the pod or container is gone"
	case errors.As(err, &status):
		return redact.ExcerptString(status.Status().Message)
	}
	return redact.ExcerptString(err.Error())
}
