#!/bin/sh
# Regenerates ../java-encoded.jsonl with Kafka 4.4.0's generated message
# classes (the jars from a Maven cache: Java 17+).
set -eu
m=${M2:-$HOME/.m2/repository}/org/apache/kafka
cp=$m/kafka-clients/4.4.0/kafka-clients-4.4.0.jar:$m/kafka-group-coordinator/4.4.0/kafka-group-coordinator-4.4.0.jar:$m/kafka-server-common/4.4.0/kafka-server-common-4.4.0.jar
cd "$(dirname "$0")"
java -cp "$cp" Gen.java > ../java-encoded.jsonl
