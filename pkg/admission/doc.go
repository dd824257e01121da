// Package admission holds the cluster's admission webhook configurations as plain facts and
// ties them to the controllers whose writes they intercept: which webhooks a write passes
// through (the API server's rule matching, without selectors), and which writes a controller
// makes (its reconciled kind's updates, the kinds it owns, and for kube-controller-manager the
// objects each of its controllers creates). The kinds a controller owns come from the
// owner-reference probe: one bounded page of the metadata of each kind a slow webhook
// intercepts, whose objects' controller ownerReferences name the kind the controller
// reconciles. The API server's metrics say how slow each webhook is; these facts say whom that
// slows.
package admission
