package clientconfig

import (
	"bytes"
	"cmp"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// Store types of ssl.truststore.type and ssl.keystore.type.
const (
	typeJKS    = "JKS"
	typePKCS12 = "PKCS12"
	typePEM    = "PEM"
)

// tlsConfig builds the dial configuration from the ssl.* properties. The
// values are checked even without TLS, as Kafka's ConfigDef does, but the
// stores are read only when on is set.
func (b *builder) tlsConfig(on bool) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	verifyHost := true
	if v, ok := b.get("ssl.endpoint.identification.algorithm"); ok {
		switch strings.ToLower(v) {
		case "":
			verifyHost = false
		case "https":
		default:
			return nil, b.errf("ssl.endpoint.identification.algorithm", "unsupported value %q (want https, or empty to skip host name checks)", v)
		}
	}
	if v, ok := b.get("ssl.enabled.protocols"); ok {
		lo, hi, err := tlsVersions(v)
		if err != nil {
			return nil, b.errf("ssl.enabled.protocols", "%v", err)
		}
		cfg.MinVersion, cfg.MaxVersion = lo, hi
	}
	if v, ok := b.get("ssl.protocol"); ok {
		switch v {
		case "TLS", "TLSv1.2", "TLSv1.3":
		default:
			return nil, b.errf("ssl.protocol", "unsupported value %q (want TLS, TLSv1.2 or TLSv1.3)", v)
		}
	}
	for _, k := range []string{"ssl.truststore.type", "ssl.keystore.type"} {
		if v, ok := b.get(k); ok {
			if _, err := storeType(v); err != nil {
				return nil, b.errf(k, "%v", err)
			}
		}
	}
	for _, k := range []string{"ssl.truststore.password", "ssl.keystore.password", "ssl.key.password", "ssl.keystore.key"} {
		if v, ok := b.get(k); ok {
			b.secret(v)
		}
	}
	if !on {
		return cfg, nil
	}
	roots, err := b.trustStore()
	if err != nil {
		return nil, err
	}
	cfg.RootCAs = roots
	cert, err := b.keyStore()
	if err != nil {
		return nil, err
	}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	if !verifyHost {
		// An empty ssl.endpoint.identification.algorithm turns off only the
		// host name check: the chain must still lead to a trusted root.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = verifyChainOnly(roots)
	}
	return cfg, nil
}

// verifyChainOnly checks the broker's chain against roots without its
// host name.
func verifyChainOnly(roots *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("tls: the broker sent no certificate")
		}
		opts := x509.VerifyOptions{Roots: roots, Intermediates: x509.NewCertPool()}
		for _, c := range cs.PeerCertificates[1:] {
			opts.Intermediates.AddCert(c)
		}
		if _, err := cs.PeerCertificates[0].Verify(opts); err != nil {
			return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates, Err: err}
		}
		return nil
	}
}

func storeType(v string) (string, error) {
	switch up := strings.ToUpper(v); up {
	case typeJKS, typePKCS12, typePEM:
		return up, nil
	}
	return "", fmt.Errorf("unsupported store type %q (want JKS, PKCS12 or PEM)", v)
}

// storeType is the store type key sets (checked by tlsConfig), JKS by
// default.
func (b *builder) storeType(key string) string {
	typ, _ := b.get(key)
	typ, _ = storeType(cmp.Or(typ, typeJKS))
	return typ
}

// tlsVersionNames are the ssl.enabled.protocols Go's TLS stack speaks.
var tlsVersionNames = map[string]uint16{"TLSv1.2": tls.VersionTLS12, "TLSv1.3": tls.VersionTLS13, "TLSv1.1": tls.VersionTLS11, "TLSv1": tls.VersionTLS10}

func tlsVersions(list string) (lo, hi uint16, err error) {
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		v, ok := tlsVersionNames[p]
		switch {
		case p == "":
			continue
		case !ok:
			return 0, 0, fmt.Errorf("unsupported protocol %q (want TLSv1.2 or TLSv1.3)", p)
		}
		if lo == 0 || v < lo {
			lo = v
		}
		hi = max(hi, v)
	}
	if lo == 0 {
		return 0, 0, errors.New("no protocol listed")
	}
	return lo, hi, nil
}

// maxStoreSize is the largest trust or key store read: far above any real
// store, and small enough that /dev/zero is refused at once.
const maxStoreSize = 16 << 20

// read returns the contents of the store file named by key, at most
// maxStoreSize bytes.
func (b *builder) read(key, path string) ([]byte, error) {
	data, err := readLimited(b.resolve(path), maxStoreSize)
	if errors.Is(err, errTooLarge) {
		return nil, b.errf(key, "%s is larger than 16 MiB, the limit for a key or trust store", path)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, b.errf(key, "cannot read %s: %v", path, err)
	}
	return data, nil
}

// errTooLarge is a file over the limit of readLimited.
var errTooLarge = errors.New("file too large")

// readLimited reads the file at path through a bounded reader: limit+1
// bytes at most, so that one byte more tells the file is too large.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}

// trustStore returns the trusted roots; nil means the system's roots, as
// Java uses its own cacerts when no trust store is configured.
func (b *builder) trustStore() (*x509.CertPool, error) {
	typ := b.storeType("ssl.truststore.type")
	loc, hasLoc := b.get("ssl.truststore.location")
	inline, hasInline := b.get("ssl.truststore.certificates")
	pw, hasPW := b.get("ssl.truststore.password")
	var certs []*x509.Certificate
	// Kafka's DefaultSslEngineFactory.createTruststore rules.
	switch {
	case hasPW && (hasInline || typ == typePEM):
		return nil, b.errf("ssl.truststore.password", "cannot be set for a PEM trust store (Kafka rejects it too)")
	case hasPW && !hasLoc:
		return nil, b.errf("ssl.truststore.password", "set, but ssl.truststore.location is not")
	}
	switch {
	case hasInline && hasLoc:
		return nil, b.errf("ssl.truststore.certificates", "set either ssl.truststore.certificates or ssl.truststore.location, not both")
	case hasInline:
		if typ != typePEM {
			return nil, b.errf("ssl.truststore.certificates", "needs ssl.truststore.type=PEM")
		}
		var err error
		if certs, err = pemCertificates([]byte(inline)); err != nil {
			return nil, b.errf("ssl.truststore.certificates", "%v", err)
		}
	case hasLoc && loc != "":
		data, err := b.read("ssl.truststore.location", loc)
		if err != nil {
			return nil, err
		}
		switch typ {
		case typePEM:
			certs, err = pemCertificates(data)
		case typePKCS12:
			certs, err = pkcs12Certificates(data, pw)
		case typeJKS:
			if !hasPW {
				return nil, b.errf("ssl.truststore.password", "required to read a JKS trust store")
			}
			certs, err = jksCertificates(data, pw)
		}
		if err != nil {
			return nil, b.errf("ssl.truststore.location", "%s trust store %s: %v", typ, loc, err)
		}
	default:
		return nil, nil
	}
	pool := x509.NewCertPool()
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, nil
}

func pemCertificates(data []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("bad certificate: %w", err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no PEM CERTIFICATE found")
	}
	return certs, nil
}

func pkcs12Certificates(data []byte, pw string) ([]*x509.Certificate, error) {
	certs, err := pkcs12.DecodeTrustStore(data, pw)
	if err == nil {
		if len(certs) == 0 {
			return nil, errors.New("no certificate found")
		}
		return certs, nil
	}
	// A store written by openssl has no Java trust attribute; trust its
	// certificates (leaf first, then the chain) as keytool -list would
	// show them. Its error is the trust store reading's, which says why.
	_, leaf, chain, err2 := pkcs12.DecodeChain(data, pw)
	if err2 != nil {
		return nil, err
	}
	return append([]*x509.Certificate{leaf}, chain...), nil
}

// loadJKS reads a JKS store and its aliases, sorted.
func loadJKS(data []byte, pw string) (keystore.KeyStore, []string, error) {
	ks := keystore.New()
	if err := ks.Load(bytes.NewReader(data), []byte(pw)); err != nil {
		// keystore-go's integrity failure, said as keytool says it.
		if strings.Contains(err.Error(), "invalid digest") {
			err = errors.New("keystore was tampered with, or password was incorrect")
		}
		return ks, nil, err
	}
	aliases := ks.Aliases()
	slices.Sort(aliases)
	return ks, aliases, nil
}

func jksCertificates(data []byte, pw string) ([]*x509.Certificate, error) {
	ks, aliases, err := loadJKS(data, pw)
	if err != nil {
		return nil, err
	}
	var certs []*x509.Certificate
	for _, a := range aliases {
		if !ks.IsTrustedCertificateEntry(a) {
			continue
		}
		e, err := ks.GetTrustedCertificateEntry(a)
		if err != nil {
			return nil, err
		}
		c, err := x509.ParseCertificate(e.Certificate.Content)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", a, err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no trusted certificate entry found")
	}
	return certs, nil
}

// keyStore returns the client certificate for mutual TLS, or nil.
func (b *builder) keyStore() (*tls.Certificate, error) {
	typ := b.storeType("ssl.keystore.type")
	loc, hasLoc := b.get("ssl.keystore.location")
	storePW, _ := b.get("ssl.keystore.password")
	keyPW, hasKeyPW := b.get("ssl.key.password")
	inlineKey, hasKey := b.get("ssl.keystore.key")
	inlineChain, hasChain := b.get("ssl.keystore.certificate.chain")
	_, hasStorePW := b.get("ssl.keystore.password")
	// Kafka's DefaultSslEngineFactory.createKeystore rules, except that a
	// PEM key store file may hold an unencrypted key (Kafka requires
	// ssl.key.password, and so an encrypted key, there).
	switch {
	case hasStorePW && (hasKey || typ == typePEM):
		return nil, b.errf("ssl.keystore.password", "cannot be set for a PEM key store; only ssl.key.password can (Kafka rejects it too)")
	case hasStorePW && !hasLoc:
		return nil, b.errf("ssl.keystore.password", "set, but ssl.keystore.location is not")
	case hasLoc && !hasKey && typ != typePEM && !hasStorePW:
		return nil, b.errf("ssl.keystore.location", "needs ssl.keystore.password")
	}
	switch {
	case (hasKey || hasChain) && hasLoc:
		return nil, b.errf("ssl.keystore.key", "set either ssl.keystore.key with ssl.keystore.certificate.chain, or ssl.keystore.location, not both")
	case hasKey != hasChain:
		return nil, b.errf("ssl.keystore.key", "ssl.keystore.key and ssl.keystore.certificate.chain go together")
	case hasKey:
		if typ != typePEM {
			return nil, b.errf("ssl.keystore.key", "needs ssl.keystore.type=PEM")
		}
		cert, err := pemKeyPair([]byte(inlineChain), []byte(inlineKey), keyPW)
		if err != nil {
			return nil, b.errf("ssl.keystore.key", "%v", err)
		}
		return cert, nil
	case !hasLoc || loc == "":
		return nil, nil
	}
	data, err := b.read("ssl.keystore.location", loc)
	if err != nil {
		return nil, err
	}
	var cert *tls.Certificate
	switch typ {
	case typePEM:
		cert, err = pemKeyPair(data, data, keyPW)
	case typePKCS12:
		cert, err = pkcs12KeyPair(data, storePW)
	case typeJKS:
		if !hasKeyPW {
			keyPW = storePW
		}
		cert, err = jksKeyPair(data, storePW, keyPW)
	}
	if err != nil {
		return nil, b.errf("ssl.keystore.location", "%s key store %s: %v", typ, loc, err)
	}
	return cert, nil
}

// pemKeyPair reads the certificate chain from chainPEM and the private key
// from keyPEM; an ENCRYPTED PRIVATE KEY (PKCS#8, as Kafka requires) is
// decrypted with password.
func pemKeyPair(chainPEM, keyPEM []byte, password string) (*tls.Certificate, error) {
	certs, err := pemCertificates(chainPEM)
	if err != nil {
		return nil, fmt.Errorf("certificate chain: %w", err)
	}
	var key crypto.PrivateKey
	for rest := keyPEM; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		case "ENCRYPTED PRIVATE KEY":
			if password == "" {
				return nil, errors.New("the private key is encrypted; set ssl.key.password")
			}
			key, err = decryptPKCS8(block.Bytes, password)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("private key: %w", err)
		}
		break
	}
	if key == nil {
		return nil, errors.New("no PEM private key found")
	}
	return keyPair(certs, key)
}

func pkcs12KeyPair(data []byte, pw string) (*tls.Certificate, error) {
	key, leaf, cas, err := pkcs12.DecodeChain(data, pw)
	if err != nil {
		return nil, err
	}
	return keyPair(append([]*x509.Certificate{leaf}, cas...), key)
}

func jksKeyPair(data []byte, storePW, keyPW string) (*tls.Certificate, error) {
	ks, aliases, err := loadJKS(data, storePW)
	if err != nil {
		return nil, err
	}
	for _, a := range aliases {
		if !ks.IsPrivateKeyEntry(a) {
			continue
		}
		e, err := ks.GetPrivateKeyEntry(a, []byte(keyPW))
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w (check ssl.key.password)", a, err)
		}
		key, err := x509.ParsePKCS8PrivateKey(e.PrivateKey)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", a, err)
		}
		var certs []*x509.Certificate
		for _, c := range e.CertificateChain {
			x, err := x509.ParseCertificate(c.Content)
			if err != nil {
				return nil, fmt.Errorf("entry %q: %w", a, err)
			}
			certs = append(certs, x)
		}
		return keyPair(certs, key)
	}
	return nil, errors.New("no private key entry found")
}

func keyPair(chain []*x509.Certificate, key crypto.PrivateKey) (*tls.Certificate, error) {
	if len(chain) == 0 {
		return nil, errors.New("no certificate for the private key")
	}
	cert := &tls.Certificate{PrivateKey: key, Leaf: chain[0]}
	for _, c := range chain {
		cert.Certificate = append(cert.Certificate, c.Raw)
	}
	pub, ok := key.(interface{ Public() crypto.PublicKey })
	if !ok {
		return nil, errors.New("unsupported private key type")
	}
	if eq, ok := pub.Public().(interface{ Equal(crypto.PublicKey) bool }); !ok || !eq.Equal(chain[0].PublicKey) {
		return nil, errors.New("the private key does not match the first certificate")
	}
	return cert, nil
}
