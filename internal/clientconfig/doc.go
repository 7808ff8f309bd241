// Package clientconfig turns Kafka client properties, the file that
// kafka-streams-groups.sh takes with --command-config (read by
// internal/javaprops), into validated client settings. That is its single
// job: it checks every supported key as Kafka's ConfigDef does and yields
// the security protocol, a *tls.Config with the TLS material loaded from
// PEM, PKCS12 or JKS stores, the SASL credentials (PLAIN, SCRAM, and
// OAUTHBEARER tokens from the client credentials grant or a file), client.id
// and request.timeout.ms. The settings name no Kafka client library:
// internal/admin maps them onto franz-go. It never prints, never exits,
// never imports cobra, viper or franz-go, and never puts a secret into an
// error or a String; Settings.Redact removes the credentials it knows of
// from any text, e.g. a --debug log line.
package clientconfig
