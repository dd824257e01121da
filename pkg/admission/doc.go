// Package admission holds the cluster's admission webhook configurations as plain facts and
// ties them to the controllers whose writes they intercept: which webhooks a write passes
// through (the API server's rule matching, without selectors), and which writes a controller
// makes (its reconciled kind's updates, and for kube-controller-manager the objects each of
// its controllers creates). The API server's metrics say how slow each webhook is; these
// facts say whom that slows.
package admission
