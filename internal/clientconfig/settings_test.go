package clientconfig_test

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig/clientconfigtest"
	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
)

// secret is the password of every case; no error may contain it.
const secret = "s3cret-Pa55"

const (
	plainJAAS = `org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="` + secret + `";`
	scramJAAS = `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="` + secret + `";`
	oauthJAAS = `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="cli" clientSecret="` + secret + `" scope="kafka";`
)

func build(t *testing.T, text string) (*clientconfig.Settings, error) {
	t.Helper()
	p, err := javaprops.ParseBytes([]byte(text))
	require.NoError(t, err)
	return clientconfig.Build(p, clientconfig.Options{Source: "client.properties"})
}

func TestBuild(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		check   func(t *testing.T, s *clientconfig.Settings)
		wantErr string
	}{
		{name: "empty is plaintext", in: "", check: func(t *testing.T, s *clientconfig.Settings) {
			assert.Equal(t, "PLAINTEXT", s.String())
			assert.Nil(t, s.TLS)
			assert.Nil(t, s.SASL)
		}},
		{name: "unsupported property names key and line", in: "client.id=x\n\nfoo.bar=1\n",
			wantErr: "client.properties:line 3: foo.bar: unsupported property"},
		{name: "ignored admin client properties", in: "bootstrap.servers=x:1\nretries=3\nretry.backoff.ms=10\ndefault.api.timeout.ms=5\nsasl.kerberos.service.name=kafka\nmetadata.max.age.ms=1\n",
			check: func(t *testing.T, s *clientconfig.Settings) { assert.Equal(t, "PLAINTEXT", s.Protocol) }},
		{name: "protocol is case insensitive", in: "security.protocol=ssl", check: func(t *testing.T, s *clientconfig.Settings) {
			assert.Equal(t, "SSL", s.Protocol)
			require.NotNil(t, s.TLS)
			assert.Nil(t, s.TLS.RootCAs, "no trust store: the system's roots")
			assert.False(t, s.TLS.InsecureSkipVerify)
			assert.Equal(t, uint16(tls.VersionTLS12), s.TLS.MinVersion)
		}},
		{name: "bad protocol", in: "security.protocol=TLS",
			wantErr: `client.properties:line 1: security.protocol: unsupported value "TLS" (want PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)`},
		{name: "client id and request timeout", in: "client.id=ops-cli\nrequest.timeout.ms=  5000 ", check: func(t *testing.T, s *clientconfig.Settings) {
			assert.Equal(t, "ops-cli", s.ClientID)
			assert.Equal(t, 5*time.Second, s.RequestTimeout)
		}},
		{name: "bad request timeout", in: "request.timeout.ms=5s",
			wantErr: `client.properties:line 1: request.timeout.ms: invalid value "5s" (want a positive number of milliseconds)`},
		{name: "sasl without mechanism is GSSAPI", in: "security.protocol=SASL_SSL\nsasl.jaas.config=" + plainJAAS,
			wantErr: "client.properties: sasl.mechanism: not set, and Kafka's default GSSAPI (Kerberos) is not supported; set PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"},
		{name: "GSSAPI unsupported", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka",
			wantErr: "client.properties:line 2: sasl.mechanism: GSSAPI (Kerberos) is not supported; use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"},
		{name: "unknown mechanism", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=AWS_MSK_IAM",
			wantErr: `client.properties:line 2: sasl.mechanism: unsupported mechanism "AWS_MSK_IAM" (want PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER)`},
		{name: "sasl mechanism ignored without sasl protocol", in: "sasl.mechanism=GSSAPI",
			check: func(t *testing.T, s *clientconfig.Settings) { assert.Equal(t, "", s.Mechanism) }},
		{name: "missing jaas", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN",
			wantErr: "client.properties: sasl.jaas.config: required with security.protocol=SASL_PLAINTEXT (a org.apache.kafka.common.security.plain.PlainLoginModule entry)"},
		{name: "jaas module does not match mechanism", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=" + plainJAAS,
			wantErr: "client.properties:line 3: sasl.jaas.config: login module org.apache.kafka.common.security.plain.PlainLoginModule does not serve sasl.mechanism=SCRAM-SHA-512 (want org.apache.kafka.common.security.scram.ScramLoginModule)"},
		{name: "jaas without password", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\";",
			wantErr: `client.properties:line 3: sasl.jaas.config: option "password" is required by org.apache.kafka.common.security.plain.PlainLoginModule`},
		{name: "malformed jaas never shows the value", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\"" + secret + "\"",
			wantErr: "client.properties:line 4: sasl.jaas.config: login module entry not terminated by ';'"},
		{name: "plain", in: "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=" + plainJAAS, check: func(t *testing.T, s *clientconfig.Settings) {
			require.NotNil(t, s.SASL)
			assert.Equal(t, "PLAIN", s.SASL.Mechanism)
			user, pass := s.SASL.UserPassword()
			assert.Equal(t, "alice", user)
			assert.Equal(t, secret, pass)
			assert.False(t, s.SASL.DelegationToken())
			assert.Nil(t, s.TLS)
			assert.Equal(t, "SASL_PLAINTEXT PLAIN", s.String())
		}},
		{name: "scram 512 over TLS", in: "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=" + scramJAAS, check: func(t *testing.T, s *clientconfig.Settings) {
			require.NotNil(t, s.SASL)
			assert.Equal(t, "SCRAM-SHA-512", s.SASL.Mechanism)
			assert.NotNil(t, s.TLS)
		}},
		{name: "scram 256", in: "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=" + scramJAAS, check: func(t *testing.T, s *clientconfig.Settings) {
			assert.Equal(t, "SCRAM-SHA-256", s.SASL.Mechanism)
			user, pass := s.SASL.UserPassword()
			assert.Equal(t, "alice", user)
			assert.Equal(t, secret, pass)
			assert.False(t, s.SASL.DelegationToken())
		}},
		{name: "scram with a delegation token", in: "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=" +
			`org.apache.kafka.common.security.scram.ScramLoginModule required username="token-id" password="` + secret + `" tokenauth="TRUE";`, check: func(t *testing.T, s *clientconfig.Settings) {
			assert.True(t, s.SASL.DelegationToken())
		}},
		{name: "oauth needs an endpoint", in: "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=" + oauthJAAS,
			wantErr: "client.properties: sasl.oauthbearer.token.endpoint.url: required with sasl.mechanism=OAUTHBEARER (unsecured tokens are not supported)"},
		{name: "oauth needs client credentials", in: "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=https://idp.example/token\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId=\"cli\";",
			wantErr: "client.properties:line 4: sasl.jaas.config: the client credentials grant needs clientId and clientSecret (JAAS options, or sasl.oauthbearer.client.credentials.client.id and .client.secret)"},
		{name: "oauth", in: "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler\nsasl.oauthbearer.token.endpoint.url=https://idp.example/token\nsasl.jaas.config=" + oauthJAAS,
			check: func(t *testing.T, s *clientconfig.Settings) {
				assert.Equal(t, "OAUTHBEARER", s.SASL.Mechanism)
				user, pass := s.SASL.UserPassword()
				assert.Empty(t, user+pass)
			}},
		{name: "oauth other handler", in: "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.login.callback.handler.class=com.example.Custom\nsasl.oauthbearer.token.endpoint.url=https://idp.example/token\nsasl.jaas.config=" + oauthJAAS,
			wantErr: `client.properties:line 3: sasl.login.callback.handler.class: unsupported handler "com.example.Custom" (only Kafka's OAuthBearerLoginCallbackHandler is built in)`},
		{name: "endpoint identification off", in: "security.protocol=SSL\nssl.endpoint.identification.algorithm=", check: func(t *testing.T, s *clientconfig.Settings) {
			assert.True(t, s.TLS.InsecureSkipVerify)
			assert.NotNil(t, s.TLS.VerifyConnection, "the chain is still verified")
		}},
		{name: "bad endpoint identification", in: "ssl.endpoint.identification.algorithm=dns",
			wantErr: `client.properties:line 1: ssl.endpoint.identification.algorithm: unsupported value "dns" (want https, or empty to skip host name checks)`},
		{name: "enabled protocols", in: "security.protocol=SSL\nssl.enabled.protocols=TLSv1.3\nssl.protocol=TLSv1.3", check: func(t *testing.T, s *clientconfig.Settings) {
			assert.Equal(t, uint16(tls.VersionTLS13), s.TLS.MinVersion)
			assert.Equal(t, uint16(tls.VersionTLS13), s.TLS.MaxVersion)
		}},
		{name: "bad enabled protocols", in: "ssl.enabled.protocols=TLSv1.2,SSLv3",
			wantErr: `client.properties:line 1: ssl.enabled.protocols: unsupported protocol "SSLv3" (want TLSv1.2 or TLSv1.3)`},
		{name: "bad store type", in: "ssl.truststore.type=BKS",
			wantErr: `client.properties:line 1: ssl.truststore.type: unsupported store type "BKS" (want JKS, PKCS12 or PEM)`},
		{name: "missing trust store", in: "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=/nonexistent/ca.pem",
			wantErr: "client.properties:line 3: ssl.truststore.location: cannot read /nonexistent/ca.pem: no such file or directory"},
		{name: "trust store not read without TLS", in: "ssl.truststore.location=/nonexistent/ca.jks",
			check: func(t *testing.T, s *clientconfig.Settings) { assert.Nil(t, s.TLS) }},
		{name: "inline certificates need PEM type", in: "security.protocol=SSL\nssl.truststore.certificates=-----BEGIN CERTIFICATE-----",
			wantErr: "client.properties:line 2: ssl.truststore.certificates: needs ssl.truststore.type=PEM"},
		{name: "PEM trust store with a password", in: "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=/x/ca.pem\nssl.truststore.password=" + secret,
			wantErr: "client.properties:line 4: ssl.truststore.password: cannot be set for a PEM trust store (Kafka rejects it too)"},
		{name: "trust store password without a location", in: "security.protocol=SSL\nssl.truststore.password=" + secret,
			wantErr: "client.properties:line 2: ssl.truststore.password: set, but ssl.truststore.location is not"},
		{name: "PEM key store with a store password", in: "security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.location=/x/k.pem\nssl.keystore.password=" + secret,
			wantErr: "client.properties:line 4: ssl.keystore.password: cannot be set for a PEM key store; only ssl.key.password can (Kafka rejects it too)"},
		{name: "JKS key store without a password", in: "security.protocol=SSL\nssl.keystore.location=/x/k.jks",
			wantErr: "client.properties:line 2: ssl.keystore.location: needs ssl.keystore.password"},
		{name: "key without chain", in: "security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.key=" + secret,
			wantErr: "client.properties:line 3: ssl.keystore.key: ssl.keystore.key and ssl.keystore.certificate.chain go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := build(t, tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				var pe *clientconfig.PropertyError
				assert.ErrorAs(t, err, &pe)
				assert.NotContains(t, err.Error(), secret)
				return
			}
			require.NoError(t, err)
			tt.check(t, s)
			assert.NotContains(t, s.String(), secret)
			assert.NotContains(t, fmt.Sprintf("%v %+v %#v %v %+v %#v", s, *s, *s, s.SASL, s.SASL, s.SASL), secret, "printing never shows a credential")
		})
	}
}

func TestBuild_redact(t *testing.T) {
	t.Parallel()
	s, err := build(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nssl.truststore.password=truststore-pw\nsasl.jaas.config="+plainJAAS)
	require.NoError(t, err)
	got := s.Redact("user alice password " + secret + " store truststore-pw jaas " + plainJAAS)
	assert.NotContains(t, got, secret)
	assert.NotContains(t, got, "truststore-pw")
	assert.Equal(t, "user alice password [redacted] store [redacted] jaas [redacted]", got)
}

// verifies reports whether roots trust the CA's server certificate.
func verifies(roots *x509.CertPool, ca *clientconfigtest.CA) bool {
	_, err := ca.Server.Leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: "localhost"})
	return err == nil
}

func TestBuild_stores(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	other := clientconfigtest.NewCA(t, "other-ca")
	for _, kind := range []string{clientconfigtest.PEM, clientconfigtest.PKCS12, clientconfigtest.JKS} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			trust := ca.WriteTrustStore(t, dir, kind)
			keys := ca.WriteKeyStore(t, dir, kind)
			text := "security.protocol=SSL\nssl.truststore.type=" + kind + "\nssl.truststore.location=" + trust + "\n" +
				"ssl.keystore.type=" + kind + "\nssl.keystore.location=" + keys + "\n"
			if kind != clientconfigtest.PEM { // Kafka refuses store passwords for PEM
				text += "ssl.truststore.password=" + clientconfigtest.StorePassword + "\nssl.keystore.password=" + clientconfigtest.StorePassword + "\n"
			}
			s, err := build(t, text)
			require.NoError(t, err)
			require.NotNil(t, s.TLS.RootCAs)
			assert.True(t, verifies(s.TLS.RootCAs, ca))
			assert.False(t, verifies(s.TLS.RootCAs, other))
			require.Len(t, s.TLS.Certificates, 1)
			assert.Equal(t, ca.ClientLeaf.Raw, s.TLS.Certificates[0].Certificate[0])
			assert.Len(t, s.TLS.Certificates[0].Certificate, 2, "leaf and CA")

			if kind == clientconfigtest.PEM {
				return
			}
			_, err = build(t, "security.protocol=SSL\nssl.truststore.type="+kind+"\nssl.truststore.location="+trust+"\nssl.truststore.password=wrong-"+secret)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "client.properties:line 3: ssl.truststore.location: "+kind+" trust store "+trust+": ")
			assert.NotContains(t, err.Error(), secret)
			_, err = build(t, "security.protocol=SSL\nssl.keystore.type="+kind+"\nssl.keystore.location="+keys+"\nssl.keystore.password=wrong-"+secret)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "client.properties:line 3: ssl.keystore.location: "+kind+" key store "+keys+": ")
			assert.NotContains(t, err.Error(), secret)
		})
	}
}

func TestBuild_jksTrustStoreNeedsPassword(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	trust := ca.WriteTrustStore(t, t.TempDir(), clientconfigtest.JKS)
	_, err := build(t, "security.protocol=SSL\nssl.truststore.location="+trust)
	require.EqualError(t, err, "client.properties: ssl.truststore.password: required to read a JKS trust store")
}

func TestBuild_inlinePEM(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	p := javaprops.FromMap(map[string]string{
		"security.protocol":              "SSL",
		"ssl.truststore.type":            "PEM",
		"ssl.truststore.certificates":    ca.CertPEM(),
		"ssl.keystore.type":              "PEM",
		"ssl.keystore.key":               ca.ClientKeyPEM(t),
		"ssl.keystore.certificate.chain": ca.ClientChainPEM(),
	})
	s, err := clientconfig.Build(p, clientconfig.Options{})
	require.NoError(t, err)
	assert.True(t, verifies(s.TLS.RootCAs, ca))
	require.Len(t, s.TLS.Certificates, 1)
	assert.Equal(t, ca.ClientLeaf.Raw, s.TLS.Certificates[0].Certificate[0])
}

func TestBuild_pemKeyFiles(t *testing.T) {
	t.Parallel()
	cert, err := os.ReadFile(filepath.Join("testdata", "client-cert.pem"))
	require.NoError(t, err)
	tests := []struct {
		name, keyFile, password, wantErr string
		damage                           func(t *testing.T, der []byte) []byte
	}{
		{name: "unencrypted", keyFile: "client-key.pem"},
		{name: "aes-256-cbc with hmacWithSHA256", keyFile: "client-key-aes256.pem", password: "key-pass-1"},
		{name: "des3 with hmacWithSHA1", keyFile: "client-key-des3.pem", password: "key-pass-1"},
		{name: "aes-128-cbc with hmacWithSHA512", keyFile: "client-key-aes128-sha512.pem", password: "key-pass-1"},
		{name: "aes-192-cbc with hmacWithSHA384", keyFile: "client-key-aes192-sha384.pem", password: "key-pass-1"},
		{name: "ciphertext not whole blocks", keyFile: "client-key-aes256.pem", password: "key-pass-1", damage: truncateCiphertext, wantErr: "private key: malformed encrypted private key"},
		{name: "not DER", keyFile: "client-key-aes256.pem", password: "key-pass-1", damage: func(t *testing.T, der []byte) []byte { return der[:10] }, wantErr: "private key: only PKCS #5 v2.0 supported"},
		{name: "wrong password", keyFile: "client-key-aes256.pem", password: "nope-" + secret, wantErr: "cannot decrypt the private key: wrong ssl.key.password?"},
		{name: "no password", keyFile: "client-key-aes256.pem", wantErr: "the private key is encrypted; set ssl.key.password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key, err := os.ReadFile(filepath.Join("testdata", tt.keyFile))
			require.NoError(t, err)
			if tt.damage != nil {
				block, _ := pem.Decode(key)
				require.NotNil(t, block)
				block.Bytes = tt.damage(t, block.Bytes)
				key = pem.EncodeToMemory(block)
			}
			path := filepath.Join(t.TempDir(), "keystore.pem")
			require.NoError(t, os.WriteFile(path, append(key, cert...), 0o600))
			text := "security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.location=" + path + "\n"
			if tt.password != "" {
				text += "ssl.key.password=" + tt.password + "\n"
			}
			s, err := build(t, text)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), secret)
				return
			}
			require.NoError(t, err)
			require.Len(t, s.TLS.Certificates, 1)
			assert.Equal(t, "test-client", s.TLS.Certificates[0].Leaf.Subject.CommonName)
		})
	}
}

// truncateCiphertext drops the last byte of an EncryptedPrivateKeyInfo's
// data, which CBC cannot decrypt.
func truncateCiphertext(t *testing.T, der []byte) []byte {
	var info struct {
		Algorithm pkix.AlgorithmIdentifier
		Data      []byte
	}
	_, err := asn1.Unmarshal(der, &info)
	require.NoError(t, err)
	info.Data = info.Data[:len(info.Data)-1]
	out, err := asn1.Marshal(info)
	require.NoError(t, err)
	return out
}

func TestBuild_keyMustMatchCertificate(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	p := javaprops.FromMap(map[string]string{
		"security.protocol": "SSL", "ssl.keystore.type": "PEM",
		"ssl.keystore.key": ca.ClientKeyPEM(t), "ssl.keystore.certificate.chain": ca.CertPEM(),
	})
	_, err := clientconfig.Build(p, clientconfig.Options{})
	require.Error(t, err)
	assert.True(t, strings.HasSuffix(err.Error(), "ssl.keystore.key: the private key does not match the first certificate"), err.Error())
}

// TestBuild_pkcs12TrustStoreWithoutTrustAttribute reads a PKCS12 store as
// openssl writes it, without Java's trust attribute (here a key store): its
// certificates are trusted, as keytool -list shows them.
func TestBuild_pkcs12TrustStoreWithoutTrustAttribute(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	store := ca.WriteKeyStore(t, t.TempDir(), clientconfigtest.PKCS12)
	s, err := build(t, "security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location="+store+"\nssl.truststore.password="+clientconfigtest.StorePassword)
	require.NoError(t, err)
	assert.True(t, verifies(s.TLS.RootCAs, ca))
	_, err = ca.ClientLeaf.Verify(x509.VerifyOptions{Roots: s.TLS.RootCAs, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	assert.NoError(t, err, "the leaf of the store is trusted too")

	_, err = build(t, "security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location="+store+"\nssl.truststore.password=wrong-"+secret)
	require.EqualError(t, err, "client.properties:line 3: ssl.truststore.location: PKCS12 trust store "+store+": pkcs12: decryption password incorrect")

	garbage := filepath.Join(t.TempDir(), "garbage.p12")
	require.NoError(t, os.WriteFile(garbage, []byte("not a store"), 0o600))
	_, err = build(t, "security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location="+garbage+"\nssl.truststore.password=x")
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "client.properties:line 3: ssl.truststore.location: PKCS12 trust store "+garbage+": pkcs12: error reading P12 data: "), err.Error())
}

// FuzzBuild proves the validation never panics on any properties file and
// reports every problem as a *PropertyError.
func FuzzBuild(f *testing.F) {
	for _, s := range []string{
		"", "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=" + plainJAAS + "\n",
		"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=" + scramJAAS + "\n",
		"security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=" + oauthJAAS + "\n",
		"security.protocol=sasl_plaintext\nsasl.mechanism=PLAIN\nsasl.jaas.config=x required a='b\\",
		"security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=/* x required;", "ssl.enabled.protocols=TLSv1.2,,TLSv9",
		"security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.certificates=-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----",
		"request.timeout.ms=99999999999\nclient.id= \t", "ssl.endpoint.identification.algorithm=\nssl.protocol=TLSv1.1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := javaprops.ParseBytes(data)
		if err != nil {
			return
		}
		for _, e := range p.Entries() {
			if strings.HasSuffix(e.Key, ".location") || strings.HasSuffix(e.Key, ".url") {
				return // no reads of arbitrary files (a device could block)
			}
		}
		if _, err := clientconfig.Build(p, clientconfig.Options{}); err != nil {
			var pe *clientconfig.PropertyError
			assert.ErrorAs(t, err, &pe)
		}
	})
}
