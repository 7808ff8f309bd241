// Package delete is the delete verb: given options and an admin client it
// takes the requested streams groups (or lists them all), runs
// kafka-streams-groups.sh's pre-checks against ListGroups (a group must exist,
// be a streams group and be Empty), deletes the groups that pass at their
// coordinators, optionally infers and deletes their internal topics, and
// builds a Result with one entry per group in request order, each with its
// true outcome. It never prints, never formats and never decides exit codes.
// The package name shadows the builtin delete; import it as groupdelete.
package delete
