// Package events reads the Warning events that speak of a controller's work, as cluster
// facts: those its component reported (reportingController, source.component) and those on
// objects of the kinds it reconciles, over the report's window and a short lookback, grouped
// by reason and object with their counts, last time and message. The read is bounded (type
// Warning, paged, a cap on the events read and the groups kept) and pre-checked with a
// SelfSubjectAccessReview: what may not be read becomes a note naming the permission.
package events
