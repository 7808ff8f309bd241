// Package list is the list verb: given options and an admin client it lists
// the streams groups of a cluster, optionally only those in some states,
// and returns them sorted by group id. It parses the state list of
// kafka-streams-groups.sh --list --state with the Java tool's rules and
// message. It never prints, never formats and never decides exit codes; it
// imports only the admin package.
package list
