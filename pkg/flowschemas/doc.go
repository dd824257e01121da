// Package flowschemas holds the cluster's API Priority and Fairness FlowSchemas as plain facts
// (read bounded, RBAC pre-checked) and classifies a controller's requests as the API server
// does, loosely: the first FlowSchema, by matchingPrecedence, whose subjects match the
// controller's identity and whose rules cover the requests it makes. The API server's metrics
// say how long each FlowSchema's requests wait in their priority level's queues; these facts
// say which FlowSchema is the controller's.
package flowschemas
