// Package watch is what --watch compares between two samples of the same
// command (describe, overview, check): a Snapshot of each group (state,
// epochs, members, the active owner of each task, the tasks moving, the
// lag, the description status, the check's status) built from the verb's
// result, and the Changes from one snapshot to the next (a state or epoch
// that changed, members joining or leaving, tasks moving, lag rising).
// It never prints; the command draws the samples.
package watch
