package main

import (
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The bootstrap servers are checked as Kafka's clients check
// bootstrap.servers (ClientUtils.parseAndValidateAddresses with
// Utils.getHost and Utils.getPort): an optional listener prefix such as
// PLAINTEXT://, a host of letters, digits and - % . _ : (IPv6 bare or in
// brackets), and a port, which is required. Kafka fails such a value when
// the admin client is built (a ConfigException, exit 1); here it is a usage
// error found at the same point, after the options were checked, naming
// the value and where it came from. Two values Kafka lets through to fail
// later are refused too: port 0, and a host with a colon that is no IPv6
// address (Kafka reads "::1" as host ":" and port 1). e2e/FINDINGS.md F141.

// kafkaHostPort is Utils.HOST_PORT_PATTERN, matched whole as getHost does.
var kafkaHostPort = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[0-9a-zA-Z\-%._]*://)?\[?([0-9a-zA-Z\-%._:]*)]?:([0-9]+)$`)
})

// parseBootstrap checks each server and returns it as host:port, the form
// franz-go dials (IPv6 in brackets, the port in decimal without leading
// zeros). origin names the setting in errors ("--bootstrap-server", an
// environment variable, or the config file and line).
func parseBootstrap(servers []string, origin string) ([]string, error) {
	out := make([]string, 0, len(servers))
	for _, s := range servers {
		hp, err := parseServer(s)
		if err != nil {
			return nil, usageErrorf("%s: invalid server %s: %v", origin, quoteValue(s), err)
		}
		out = append(out, hp)
	}
	return out, nil
}

// splitServers reads a comma-separated list of servers (--bootstrap-server,
// --new-bootstrap-server), blanks around each and empty items dropped.
func splitServers(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseServer(s string) (string, error) {
	m := kafkaHostPort().FindStringSubmatch(s)
	if m == nil {
		return "", fmt.Errorf("want host:port, optionally with a listener prefix (PLAINTEXT://host:port)")
	}
	host, digits := m[1], m[2]
	port, err := strconv.Atoi(digits)
	if err != nil || port < 1 || port > 65535 {
		return "", fmt.Errorf("port %s is not in 1-65535", digits)
	}
	if strings.Contains(host, ":") && net.ParseIP(strings.SplitN(host, "%", 2)[0]) == nil {
		return "", fmt.Errorf("host %q is not an IPv6 address (write IPv6 as [::1]:9092)", host)
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// maxEchoed is how much of a bad value a message repeats.
const maxEchoed = 200

// quoteValue quotes a value from the command line, the environment or a
// file for a message: Go-quoted, so no control character reaches the
// terminal, and cut to maxEchoed bytes.
func quoteValue(s string) string {
	if len(s) <= maxEchoed {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:maxEchoed]), len(s))
}

// missingBootstrapHint is the line after the missing-bootstrap error: the
// ways to name a cluster, and the playground for a first try.
const missingBootstrapHint = "Name a cluster with --bootstrap-server host:port, KSTREAMS_GROUPS_BOOTSTRAP_SERVER or a --profile of the config file; no Kafka at hand? kstreams-groups playground starts one."

// errMissingBootstrap is the usage error of a command that needs a
// cluster and has none: the Java tool's line (the Kafka form's parity,
// e2e/testdata/real/describe-topology-no-bootstrap), then our hint.
func errMissingBootstrap() error {
	return &usageError{err: errors.New(`Missing required argument "[bootstrap-server]"`), hint: missingBootstrapHint}
}
