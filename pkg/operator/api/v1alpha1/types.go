package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Workload is one unit of work for the reference operator. Its spec describes how reconciling
// it behaves (slow, failing, stuck, requeueing, with children and payload), its status what the
// operator last did with it.
type Workload struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WorkloadSpec   `json:"spec,omitempty"`
	Status WorkloadStatus `json:"status,omitempty"`
}

// WorkloadSpec sets the behaviour of one reconcile of this object.
type WorkloadSpec struct {
	// ReconcileDelay is how long each reconcile sleeps before doing its work.
	ReconcileDelay metav1.Duration `json:"reconcileDelay,omitempty"`
	// ReconcileFor, when set, is how long each reconcile takes in all: it does its work (its
	// writes included) first, then sleeps what is left, so that a slower API server leaves
	// its length alone while a write takes less than that.
	ReconcileFor metav1.Duration `json:"reconcileFor,omitempty"`
	// FailureRate is the share of reconciles (0 to 1) that return an error. The choice is
	// deterministic: it depends on Seed, the object's name, generation and attempt number.
	FailureRate float64 `json:"failureRate,omitempty"`
	// FailureReason and FailureMessage are what a failing reconcile says: the reason and
	// message of the Ready=False condition it writes, and its error. Defaults:
	// "InjectedFailure" and a message naming spec.failureRate.
	FailureReason  string `json:"failureReason,omitempty"`
	FailureMessage string `json:"failureMessage,omitempty"`
	// Seed varies the deterministic failure choice between objects or runs.
	Seed int64 `json:"seed,omitempty"`
	// RequeueAfter, when set, asks for another reconcile this long after a successful one.
	RequeueAfter metav1.Duration `json:"requeueAfter,omitempty"`
	// Stuck makes the reconcile block until the operator shuts down.
	Stuck bool `json:"stuck,omitempty"`
	// Children is the number of ConfigMaps the operator keeps for this object.
	Children int32 `json:"children,omitempty"`
	// PayloadBytes is the size of the data each child ConfigMap carries.
	PayloadBytes int32 `json:"payloadBytes,omitempty"`
}

// WorkloadStatus is what the operator last did with the object.
type WorkloadStatus struct {
	// ObservedGeneration is the metadata.generation the last successful reconcile saw.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions holds the Ready condition.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// LastReconcileTime is when a reconcile last wrote this status.
	LastReconcileTime *metav1.Time `json:"lastReconcileTime,omitempty"`
	// Children is the number of child ConfigMaps that exist.
	Children int32 `json:"children,omitempty"`
}

// WorkloadList is a list of Workloads.
type WorkloadList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Workload `json:"items"`
}

// ConditionReady is the condition type the operator sets on every Workload it reconciled.
const ConditionReady = "Ready"
