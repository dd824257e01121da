// Package podlog reads the recent log of the container that serves a controller's metrics
// (pods/log), bounded in time (sinceSeconds), size (limitBytes) and duration, after a
// SelfSubjectAccessReview, and hands it to pkg/logs: only the facts extracted leave it. Every
// failure is the log's note, never an error of the report.
package podlog
