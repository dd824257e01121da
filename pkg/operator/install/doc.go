// Package install renders the reference operator's manifests (CRD, Namespace,
// ServiceAccount, least-privilege RBAC, Deployment, metrics Service) and applies or deletes
// them with server-side apply. The CRD is embedded so `operator run` can install it too.
package install
