// Package apiserver holds, as plain facts read bounded and RBAC pre-checked, what the API
// server's configuration does to a controller's requests, and ties each to the controllers it
// touches:
//
//   - admission (Admission): the webhook configurations and which of a controller's writes
//     they intercept (the API server's rule matching, without selectors): its reconciled kind's
//     updates, the kinds it owns (found by the owner-reference probe: one bounded page of the
//     metadata of each kind a slow webhook intercepts, whose objects' controller
//     ownerReferences name the kind the controller reconciles), and for
//     kube-controller-manager the objects each of its controllers creates. The API server's
//     metrics say how slow each webhook is; these facts say whom that slows.
//   - flow control (FlowControl): the API Priority and Fairness FlowSchemas, and the first one,
//     by matchingPrecedence, whose subjects match a controller's identity and whose rules
//     cover the requests it makes, as the API server classifies them, loosely.
//   - RBAC (GrantReader): whether a ServiceAccount may list or watch a kind's objects in every
//     namespace, from the ClusterRoleBindings and the ClusterRoles they bind: for a controller
//     neither its kind nor its flags say to be cluster-wide, that grant does.
package apiserver
