// Package clientconfig turns Kafka client properties, the file that
// kafka-streams-groups.sh takes with --command-config, into franz-go client
// options. Its single job is that mapping: it validates each supported key
// of the properties that internal/javaprops read (security.protocol, sasl.*, ssl.*,
// client.id, request.timeout.ms), loads TLS material in PEM, PKCS12 and JKS,
// builds the SASL mechanisms (PLAIN, SCRAM, OAUTHBEARER with the client
// credentials grant) and the optional --debug request log. It never prints
// except to the io.Writer it is given for that log, never exits, never
// imports cobra or viper, and never puts a secret into an error or a log.
package clientconfig
