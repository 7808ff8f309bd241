package clientconfig

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
)

// Security protocols of security.protocol.
const (
	Plaintext     = "PLAINTEXT"
	SSL           = "SSL"
	SASLPlaintext = "SASL_PLAINTEXT"
	SASLSSL       = "SASL_SSL"
)

// SASL mechanisms of sasl.mechanism.
const (
	MechPlain       = "PLAIN"
	MechScramSHA256 = "SCRAM-SHA-256"
	MechScramSHA512 = "SCRAM-SHA-512"
	MechOAuthBearer = "OAUTHBEARER"
)

// JAAS login modules the client understands, by the mechanism they serve.
const (
	plainModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
	oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
)

// Settings are validated client settings, neutral of any Kafka client
// library. Credentials are kept unexported, behind pointers, so that
// printing a Settings value cannot show them.
type Settings struct {
	// Protocol is security.protocol, upper case; PLAINTEXT by default.
	Protocol string
	// Mechanism is sasl.mechanism with a SASL protocol, else "".
	Mechanism string
	// ClientID is client.id; "" keeps the client's default.
	ClientID string
	// RequestTimeout is request.timeout.ms; 0 keeps franz-go's default.
	RequestTimeout time.Duration
	// TLS is the dial configuration with SSL or SASL_SSL, else nil.
	TLS *tls.Config
	// SASL is the authentication with SASL_PLAINTEXT or SASL_SSL, else nil.
	SASL *SASL

	secrets *redactor
}

// String summarises the settings without credentials.
func (s *Settings) String() string {
	if s.Mechanism != "" {
		return s.Protocol + " " + s.Mechanism
	}
	return s.Protocol
}

// Options tell Build where the properties came from.
type Options struct {
	// Source names the properties in errors, e.g. the file's path.
	Source string
	// BaseDir resolves relative paths in ssl.*.location; "" is the working
	// directory.
	BaseDir string
	// HTTPClient fetches OAuth tokens; nil uses a client with the system's
	// trusted roots.
	HTTPClient *http.Client
}

// PropertyError is an unsupported or invalid property. It names the key
// and the line, never a secret value.
type PropertyError struct {
	Source string
	Key    string
	Line   int
	Msg    string
}

func (e *PropertyError) Error() string {
	where := e.Source
	if e.Line > 0 {
		if where != "" {
			where += ":"
		}
		where += "line " + strconv.Itoa(e.Line)
	}
	if where != "" {
		where += ": "
	}
	if e.Key == "" {
		return where + e.Msg
	}
	return where + e.Key + ": " + e.Msg
}

// supported are the keys Build maps onto the client.
var supported = map[string]bool{
	"security.protocol":                                 true,
	"sasl.mechanism":                                    true,
	"sasl.jaas.config":                                  true,
	"sasl.oauthbearer.token.endpoint.url":               true,
	"sasl.oauthbearer.client.credentials.client.id":     true,
	"sasl.oauthbearer.client.credentials.client.secret": true,
	"sasl.oauthbearer.scope":                            true,
	"sasl.login.callback.handler.class":                 true,
	"sasl.oauthbearer.jwt.retriever.class":              true,
	"ssl.truststore.type":                               true,
	"ssl.truststore.location":                           true,
	"ssl.truststore.password":                           true,
	"ssl.truststore.certificates":                       true,
	"ssl.keystore.type":                                 true,
	"ssl.keystore.location":                             true,
	"ssl.keystore.password":                             true,
	"ssl.keystore.key":                                  true,
	"ssl.keystore.certificate.chain":                    true,
	"ssl.key.password":                                  true,
	"ssl.endpoint.identification.algorithm":             true,
	"ssl.enabled.protocols":                             true,
	"ssl.protocol":                                      true,
	"client.id":                                         true,
	"request.timeout.ms":                                true,
}

// ignored are admin client keys that change nothing for a one-shot command:
// --bootstrap-server and --timeout take the place of bootstrap.servers, the
// timeouts and the retry settings, and Go's TLS stack picks the algorithms.
var ignored = map[string]bool{
	"bootstrap.servers":                        true,
	"default.api.timeout.ms":                   true,
	"retries":                                  true,
	"retry.backoff.ms":                         true,
	"retry.backoff.max.ms":                     true,
	"reconnect.backoff.ms":                     true,
	"reconnect.backoff.max.ms":                 true,
	"socket.connection.setup.timeout.ms":       true,
	"socket.connection.setup.timeout.max.ms":   true,
	"connections.max.idle.ms":                  true,
	"metadata.max.age.ms":                      true,
	"metadata.recovery.strategy":               true,
	"metadata.recovery.rebootstrap.trigger.ms": true,
	"receive.buffer.bytes":                     true,
	"send.buffer.bytes":                        true,
	"client.dns.lookup":                        true,
	"auto.include.jmx.reporter":                true,
	"enable.metrics.push":                      true,
	"metric.reporters":                         true,
	"metrics.num.samples":                      true,
	"metrics.recording.level":                  true,
	"metrics.sample.window.ms":                 true,
	"ssl.cipher.suites":                        true,
	"ssl.keymanager.algorithm":                 true,
	"ssl.trustmanager.algorithm":               true,
	"ssl.secure.random.implementation":         true,
	"sasl.kerberos.service.name":               true,
	"sasl.login.connect.timeout.ms":            true,
	"sasl.login.read.timeout.ms":               true,
	"sasl.login.refresh.buffer.seconds":        true,
	"sasl.login.refresh.min.period.seconds":    true,
	"sasl.login.refresh.window.factor":         true,
	"sasl.login.refresh.window.jitter":         true,
	"sasl.login.retry.backoff.ms":              true,
	"sasl.login.retry.backoff.max.ms":          true,
	"sasl.oauthbearer.scope.claim.name":        true,
	"sasl.oauthbearer.sub.claim.name":          true,
	"sasl.oauthbearer.header.urlencode":        true,
	"sasl.oauthbearer.clock.skew.seconds":      true,
	"sasl.oauthbearer.expected.audience":       true,
	"sasl.oauthbearer.expected.issuer":         true,
}

// maxClientID is the longest client.id: every request header carries it as
// a string with a 16-bit length.
const maxClientID = 32767

// builder carries one Build call.
type builder struct {
	p   javaprops.Properties
	o   Options
	s   *Settings
	get func(key string) (string, bool)
}

func (b *builder) errf(key, format string, args ...any) error {
	e, _ := b.p.Get(key)
	return &PropertyError{Source: b.o.Source, Key: key, Line: e.Line, Msg: fmt.Sprintf(format, args...)}
}

// secret records a credential so the debug log can redact it.
func (b *builder) secret(v string) { b.s.secrets.add(v) }

// Build validates properties and loads what they point at (trust and key
// stores). Every problem is a *PropertyError.
func Build(p javaprops.Properties, o Options) (*Settings, error) {
	b := &builder{p: p, o: o, s: &Settings{Protocol: Plaintext, secrets: &redactor{}}}
	b.get = func(key string) (string, bool) {
		e, ok := p.Get(key)
		if !ok {
			return "", false
		}
		return javaTrim(e.Value), true
	}
	for _, e := range p.Entries() {
		switch {
		case supported[e.Key], ignored[e.Key]:
		case strings.HasPrefix(e.Key, "sasl.kerberos."):
		case !javaprops.LooksLikePropertyName(e.Key):
			// Not a property name: maybe a line of a value that lost its
			// continuation backslash, so maybe a secret; never shown.
			return nil, &PropertyError{Source: o.Source, Line: e.Line,
				Msg: "not a property (the line is not shown: it may be part of a secret; does the line before it lack its ending backslash?)"}
		default:
			return nil, &PropertyError{Source: o.Source, Key: e.Key, Line: e.Line, Msg: "unsupported property"}
		}
	}
	// Kafka's ConfigDef rejects a value it cannot parse even when the
	// property does not apply, so every supported value is checked.
	if v, ok := b.get("security.protocol"); ok {
		switch up := strings.ToUpper(v); up {
		case Plaintext, SSL, SASLPlaintext, SASLSSL:
			b.s.Protocol = up
		default:
			return nil, b.errf("security.protocol", "unsupported value %q (want PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)", v)
		}
	}
	if v, ok := b.get("client.id"); ok {
		if len(v) > maxClientID {
			return nil, b.errf("client.id", "%d bytes, longer than the %d a request header can carry", len(v), maxClientID)
		}
		b.s.ClientID = v
	}
	if v, ok := b.get("request.timeout.ms"); ok {
		ms, err := strconv.ParseInt(v, 10, 32)
		if err != nil || ms <= 0 {
			return nil, b.errf("request.timeout.ms", "invalid value %q (want a positive number of milliseconds)", v)
		}
		b.s.RequestTimeout = time.Duration(ms) * time.Millisecond
	}
	tlsOn := b.s.Protocol == SSL || b.s.Protocol == SASLSSL
	cfg, err := b.tlsConfig(tlsOn)
	if err != nil {
		return nil, err
	}
	if tlsOn {
		b.s.TLS = cfg
	}
	if b.s.Protocol == SASLPlaintext || b.s.Protocol == SASLSSL {
		if err := b.sasl(); err != nil {
			return nil, err
		}
	}
	return b.s, nil
}

// sasl builds the mechanism of sasl.mechanism from sasl.jaas.config.
func (b *builder) sasl() error {
	mech, ok := b.get("sasl.mechanism")
	if !ok {
		// Kafka's default mechanism is GSSAPI.
		return &PropertyError{Source: b.o.Source, Key: "sasl.mechanism", Msg: "not set, and Kafka's default GSSAPI (Kerberos) is not supported; set PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"}
	}
	module := ""
	switch mech {
	case MechPlain:
		module = plainModule
	case MechScramSHA256, MechScramSHA512:
		module = scramModule
	case MechOAuthBearer:
		module = oauthModule
	case "GSSAPI":
		return b.errf("sasl.mechanism", "GSSAPI (Kerberos) is not supported; use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER")
	default:
		return b.errf("sasl.mechanism", "unsupported mechanism %q (want PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER)", mech)
	}
	b.s.Mechanism = mech
	raw, ok := b.get("sasl.jaas.config")
	if !ok {
		return &PropertyError{Source: b.o.Source, Key: "sasl.jaas.config", Msg: fmt.Sprintf("required with security.protocol=%s (a %s entry)", b.s.Protocol, module)}
	}
	b.secret(raw)
	jaas, err := javaprops.ParseJAAS(raw)
	if err != nil {
		return b.errf("sasl.jaas.config", "%v", err)
	}
	if jaas.Module != module {
		return b.errf("sasl.jaas.config", "%s does not serve sasl.mechanism=%s (want %s)", shownModule(jaas.Module), mech, module)
	}
	for k, v := range jaas.Options {
		switch k {
		case "username", "clientId", "scope", "tokenauth":
		default:
			b.secret(v)
		}
	}
	b.s.SASL = &SASL{Mechanism: mech, cred: &credentials{}}
	if mech == MechOAuthBearer {
		return b.oauth(jaas)
	}
	for _, k := range []string{"username", "password"} {
		if _, ok := jaas.Options[k]; !ok {
			return b.errf("sasl.jaas.config", "option %q is required by %s", k, module)
		}
	}
	b.s.SASL.cred.user, b.s.SASL.cred.pass = jaas.Options["username"], jaas.Options["password"]
	b.s.SASL.cred.delegationToken = mech != MechPlain && strings.EqualFold(jaas.Options["tokenauth"], "true")
	return nil
}

// knownModules are the JAAS login modules an error may name; any other
// class name is a word of sasl.jaas.config, which may be a secret.
var knownModules = map[string]bool{
	plainModule: true, scramModule: true, oauthModule: true,
	"com.sun.security.auth.module.Krb5LoginModule": true,
}

// shownModule names a login module in an error.
func shownModule(m string) string {
	if knownModules[m] {
		return "login module " + m
	}
	return "the login module (its name is not shown: it is not one of Kafka's)"
}

// oauth sets up the client credentials grant of Kafka's
// OAuthBearerLoginCallbackHandler: the JAAS options clientId, clientSecret
// and scope (or the KIP-1139 properties), and extension_* options as SASL
// extensions. A file: URL reads a token that something else fetched.
func (b *builder) oauth(jaas javaprops.JAASEntry) error {
	if v, ok := b.get("sasl.login.callback.handler.class"); ok && !strings.HasSuffix(v, ".OAuthBearerLoginCallbackHandler") {
		return b.errf("sasl.login.callback.handler.class", "unsupported handler %q (only Kafka's OAuthBearerLoginCallbackHandler is built in)", v)
	}
	if v, ok := b.get("sasl.oauthbearer.jwt.retriever.class"); ok &&
		!strings.HasSuffix(v, ".ClientCredentialsJwtRetriever") && !strings.HasSuffix(v, ".DefaultJwtRetriever") && !strings.HasSuffix(v, ".FileJwtRetriever") {
		return b.errf("sasl.oauthbearer.jwt.retriever.class", "unsupported retriever %q (the client credentials grant and file tokens are supported)", v)
	}
	endpoint, ok := b.get("sasl.oauthbearer.token.endpoint.url")
	if !ok || endpoint == "" {
		return &PropertyError{Source: b.o.Source, Key: "sasl.oauthbearer.token.endpoint.url", Msg: "required with sasl.mechanism=OAUTHBEARER (unsecured tokens are not supported)"}
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "file") {
		return b.errf("sasl.oauthbearer.token.endpoint.url", "want an https:, http: or file: URL")
	}
	f := &tokenFetcher{endpoint: u, client: b.o.HTTPClient, extensions: map[string]string{}}
	pick := func(prop, option string) string {
		if v, ok := b.get(prop); ok && v != "" {
			return v
		}
		return jaas.Options[option]
	}
	f.clientID = pick("sasl.oauthbearer.client.credentials.client.id", "clientId")
	f.clientSecret = pick("sasl.oauthbearer.client.credentials.client.secret", "clientSecret")
	f.scope = pick("sasl.oauthbearer.scope", "scope")
	b.secret(f.clientSecret)
	for k, v := range jaas.Options {
		if name, ok := strings.CutPrefix(k, "extension_"); ok {
			f.extensions[name] = v
		}
	}
	if u.Scheme != "file" && (f.clientID == "" || f.clientSecret == "") {
		return b.errf("sasl.jaas.config", "the client credentials grant needs clientId and clientSecret (JAAS options, or sasl.oauthbearer.client.credentials.client.id and .client.secret)")
	}
	if u.Scheme == "file" {
		f.path = u.Path
		if !filepath.IsAbs(f.path) && b.o.BaseDir != "" {
			f.path = filepath.Join(b.o.BaseDir, f.path)
		}
	}
	f.onToken = b.s.secrets.add
	b.s.SASL.cred.token = f
	return nil
}

// Redact replaces every credential the settings hold (passwords, the JAAS
// text, fetched tokens) in text with [redacted].
func (s *Settings) Redact(text string) string { return s.secrets.apply(text) }

// javaTrim is String.trim: Kafka's ConfigDef trims every string value,
// passwords included, by removing characters up to U+0020 at both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// resolve makes a location relative to BaseDir.
func (b *builder) resolve(path string) string {
	if path == "" || filepath.IsAbs(path) || b.o.BaseDir == "" {
		return path
	}
	return filepath.Join(b.o.BaseDir, path)
}
