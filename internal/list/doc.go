// Package list is the list verb: given options and an admin client it lists
// the streams groups of a cluster, with their states when asked (--state),
// optionally only those in some states, sorted by group id, and parses the
// state list of kafka-streams-groups.sh --list --state with the Java tool's
// rules and message. It never prints, never formats and never decides exit
// codes.
package list
