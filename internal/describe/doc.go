// Package describe is the describe verb: given options and an admin client it
// lists or takes the requested streams groups, describes them at their
// coordinators and builds a Result model in request order, with per-group
// errors, the members and their tasks, the KIP-1331 topology description
// status and, for the offsets view, each partition's committed offset, log
// offsets and lag. It never prints, never formats and never decides exit
// codes.
package describe
