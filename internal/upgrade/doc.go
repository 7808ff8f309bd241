// Package upgrade is the upgrade verb: carrying a Kafka Streams application
// across a topology change that a Kafka 4.4 broker refuses for its existing
// streams group ("Topology updates are not supported yet"), with nothing
// lost. Its plan (plan.go) says, from the group's stored description, its
// committed offsets and the end offsets of its internal topics, what the
// broker will do with the new topology (accept it as is, or refuse it: then
// a migration is needed) and, for a migration, exactly what it carries,
// what starts empty, what is left behind and what blocks it. The broker's
// verdict is diff's (it imports diff along the edge of the import rules);
// the new topology is read by the command and handed in. It never prints,
// never formats, never reads files itself and never decides exit codes.
package upgrade
