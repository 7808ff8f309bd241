// Package check is the check verb: a health check of streams groups for
// monitoring systems, in the Monitoring Plugins convention (Nagios, Icinga,
// Sensu, Zabbix, ...). It runs the overview's join (package overview) for
// the requested groups, holds each against the conditions it was given
// (expected states, members, total and largest task lag, the topology
// description, tasks moving, the standbys of stateful tasks) and decides
// one status per group and for the whole check: OK, WARNING, CRITICAL or UNKNOWN, whose values are the
// plugin exit codes. It never prints, never formats and never exits.
package check
