package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// No part of a sasl.jaas.config value or of a *.password value ever
// reaches stdout or stderr, however broken the file around it is: errors
// quote no part of a JAAS text but known option names, and no property key
// that does not look like a property name (a line of a value that lost its
// continuation backslash).

// secretTemplates place a secret (%s) in properties and JAAS text, whole,
// broken in the ways a hand-edited file breaks, and after the lines fuzz
// data is put into. %j is where the fuzz data goes.
var secretTemplates = []string{
	// The example: a missing quote makes the password a key.
	"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice password=\"%s\";%j\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"%s\"%j\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=%j org.apache.kafka.common.security.plain.PlainLoginModule required username=alice password=%s;\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=https://idp.example/token\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId=\"app\" clientSecret=%s%j;\n",
	// A multi-line value without its ending backslash: the secret's line
	// is read as a key of its own.
	"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\"\n  password=\"%s\";%j\n",
	"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n username=\"alice\" \\\n password=\"%s%j\n",
	// A line holding only a secret.
	"security.protocol=SSL\nssl.truststore.password=\n%s\n%j\n",
	"%j\n%s\n",
	// Password properties, with broken escapes next to them.
	"security.protocol=SSL\nssl.truststore.type=JKS\nssl.truststore.location=/nonexistent/truststore.jks\nssl.truststore.password=%s%j\n",
	"security.protocol=SSL\nssl.keystore.type=PKCS12\nssl.keystore.location=/nonexistent/keystore.p12\nssl.keystore.password=%s\nssl.key.password=%s%j\\u12\n",
	"ssl.key.password=%s\\u%j\n",
	"%j ssl.keystore.password %s\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=GSSAPI\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required keyTab=\"%s\"%j;\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=%s required%j;\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=x.M required %s=\"v\"%j;\n",
}

// secretFrom makes a secret from fuzz data: upper-case letters and digits
// in turn, at least 8 of them. No message of the tool holds four such
// characters in a row, so any four of them in the output are a leak.
func secretFrom(seed string) string {
	const letters, digits = "ABCDEFGHJKLMNPQRSTUVWXYZ", "23456789"
	var b strings.Builder
	for i := 0; i < max(8, min(len(seed), 24)); i++ {
		c := byte(i * 7)
		if i < len(seed) {
			c = seed[i]
		}
		if i%2 == 0 {
			b.WriteByte(letters[int(c)%len(letters)])
		} else {
			b.WriteByte(digits[int(c)%len(digits)])
		}
	}
	return b.String()
}

// leaked returns the first four characters of secret that appear in out.
func leaked(out, secret string) string {
	for i := 0; i+4 <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+4]) {
			return secret[i : i+4]
		}
	}
	return ""
}

// noBroker fails the client instead of connecting: every secret that can
// leak, leaks while the properties are read and checked.
func noBroker(admin.Config) (client, error) {
	return nil, errors.New("no broker in this test")
}

func FuzzSecrets(f *testing.F) {
	for i := range secretTemplates {
		for _, junk := range []string{"", "\"", "'", "\\", "=", ";", "\n", " x", "\\u00", "/*", "\u00e9", "\x00", "\"\n\"", "\r\n", "#"} {
			f.Add(uint8(i), "s3", junk)
		}
	}
	f.Fuzz(func(t *testing.T, template uint8, seed, junk string) {
		// The seed corpus runs after every test, alone: its 225 inputs
		// side by side (each its own files and environment, setenv). No
		// effect when fuzzing.
		t.Parallel()
		secret := secretFrom(seed)
		tmpl := secretTemplates[int(template)%len(secretTemplates)]
		props := strings.ReplaceAll(strings.ReplaceAll(tmpl, "%s", secret), "%j", junk)
		dir := t.TempDir()
		file := filepath.Join(dir, "client.properties")
		if err := os.WriteFile(file, []byte(props), 0o600); err != nil {
			t.Fatal(err)
		}
		config := filepath.Join(dir, "config.yaml")
		inline := "client-properties:\n  ssl.key.password: " + secret + "\n  " + strings.ReplaceAll(junk, "\n", " ") + ": x\n"
		if err := os.WriteFile(config, []byte(inline), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"--command-config", file, "--list", "--bootstrap-server", "127.0.0.1:9", "--debug"},
			{"--command-config", file, "--describe", "--group", "g", "--bootstrap-server", "127.0.0.1:9", "-o", "json"},
			{"--config", config, "--list", "--bootstrap-server", "127.0.0.1:9", "--debug"},
		} {
			var out, errOut bytes.Buffer
			setenv(t, "XDG_CONFIG_HOME", dir)
			testRun(t, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{newClient: noBroker})
			if s := leaked(out.String(), secret); s != "" {
				t.Fatalf("stdout holds %q of the secret %q (%v):\n%s\nproperties:\n%s", s, secret, args, out.String(), props)
			}
			if s := leaked(errOut.String(), secret); s != "" {
				t.Fatalf("stderr holds %q of the secret %q (%v):\n%s\nproperties:\n%s", s, secret, args, errOut.String(), props)
			}
		}
	})
}
