package controller

// Labels and annotations the operator and its scenarios put on objects.
const (
	// LabelManaged marks every object the reference operator or a scenario created, so that
	// all of them can be listed and removed with one selector.
	LabelManaged = "demo.ctrldiag.dev/managed"
	// LabelWorkload on a child ConfigMap names the Workload that owns it.
	LabelWorkload = "demo.ctrldiag.dev/workload"
	// LabelScenario names the scenario that created a Workload.
	LabelScenario = "demo.ctrldiag.dev/scenario"
	// AnnotationChangedAt is the RFC 3339 time (nanoseconds) at which a writer changed the
	// object; the event-to-handler lag is measured from it when present.
	AnnotationChangedAt = "demo.ctrldiag.dev/changed-at"
)
