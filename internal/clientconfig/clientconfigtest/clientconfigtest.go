package clientconfigtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"software.sslmate.com/src/go-pkcs12"
)

// StorePassword protects every PKCS12 and JKS store written here.
const StorePassword = "store-pass-1234"

// CA is a certificate authority with one server and one client certificate.
type CA struct {
	Cert       *x509.Certificate
	Key        *ecdsa.PrivateKey
	Server     tls.Certificate // for 127.0.0.1 and localhost
	Client     tls.Certificate
	ClientKey  *ecdsa.PrivateKey
	ClientLeaf *x509.Certificate
}

// NewCA creates a CA named cn and its certificates.
func NewCA(t testing.TB, cn string) *CA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	ca := &CA{Cert: cert, Key: key}
	ca.Server, _, _ = ca.issue(t, "broker", x509.ExtKeyUsageServerAuth, []string{"localhost"}, []net.IP{net.ParseIP("127.0.0.1")})
	ca.Client, ca.ClientKey, ca.ClientLeaf = ca.issue(t, "client", x509.ExtKeyUsageClientAuth, nil, nil)
	return ca
}

// IssueServer returns a server certificate for the given names.
func (ca *CA) IssueServer(t testing.TB, dns []string, ips []net.IP) tls.Certificate {
	c, _, _ := ca.issue(t, "broker", x509.ExtKeyUsageServerAuth, dns, ips)
	return c
}

func (ca *CA) issue(t testing.TB, cn string, usage x509.ExtKeyUsage, dns []string, ips []net.IP) (tls.Certificate, *ecdsa.PrivateKey, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dns,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, key, leaf
}

// CertPEM is the CA certificate in PEM.
func (ca *CA) CertPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw}))
}

// ClientKeyPEM is the client's unencrypted PKCS#8 key in PEM.
func (ca *CA) ClientKeyPEM(t testing.TB) string {
	der, err := x509.MarshalPKCS8PrivateKey(ca.ClientKey)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// ClientChainPEM is the client's certificate chain (leaf, CA) in PEM.
func (ca *CA) ClientChainPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.ClientLeaf.Raw})) + ca.CertPEM()
}

// Store types, as ssl.truststore.type spells them.
const (
	PEM    = "PEM"
	PKCS12 = "PKCS12"
	JKS    = "JKS"
)

// WriteTrustStore writes the CA certificate as a trust store of kind in dir
// and returns its path.
func (ca *CA) WriteTrustStore(t testing.TB, dir, kind string) string {
	t.Helper()
	var data []byte
	switch kind {
	case PEM:
		data = []byte(ca.CertPEM())
	case PKCS12:
		var err error
		data, err = pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{ca.Cert}, StorePassword)
		require.NoError(t, err)
	case JKS:
		ks := keystore.New()
		require.NoError(t, ks.SetTrustedCertificateEntry("ca", keystore.TrustedCertificateEntry{
			CreationTime: time.Now(), Certificate: keystore.Certificate{Type: "X509", Content: ca.Cert.Raw},
		}))
		var buf bytes.Buffer
		require.NoError(t, ks.Store(&buf, []byte(StorePassword)))
		data = buf.Bytes()
	default:
		t.Fatalf("unknown store kind %q", kind)
	}
	path := filepath.Join(dir, "truststore."+strings.ToLower(kind))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// WriteKeyStore writes the client key and chain as a key store of kind in
// dir and returns its path; a PEM key store holds the key and the chain in
// one file.
func (ca *CA) WriteKeyStore(t testing.TB, dir, kind string) string {
	t.Helper()
	return ca.WriteKeyStoreOf(t, dir, kind, "keystore", ca.Client)
}

// WriteKeyStoreOf writes cert (an ECDSA key with its leaf) and the CA as a
// key store of kind named name.<kind> in dir, e.g. a broker's key store.
func (ca *CA) WriteKeyStoreOf(t testing.TB, dir, kind, name string, cert tls.Certificate) string {
	t.Helper()
	key, ok := cert.PrivateKey.(*ecdsa.PrivateKey)
	require.True(t, ok, "want an ECDSA key")
	der, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	var data []byte
	switch kind {
	case PEM:
		data = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
		data = append(data, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Leaf.Raw})...)
		data = append(data, ca.CertPEM()...)
	case PKCS12:
		data, err = pkcs12.Modern.Encode(key, cert.Leaf, []*x509.Certificate{ca.Cert}, StorePassword)
		require.NoError(t, err)
	case JKS:
		ks := keystore.New()
		require.NoError(t, ks.SetPrivateKeyEntry(name, keystore.PrivateKeyEntry{
			CreationTime: time.Now(), PrivateKey: der,
			CertificateChain: []keystore.Certificate{{Type: "X509", Content: cert.Leaf.Raw}, {Type: "X509", Content: ca.Cert.Raw}},
		}, []byte(StorePassword)))
		var buf bytes.Buffer
		require.NoError(t, ks.Store(&buf, []byte(StorePassword)))
		data = buf.Bytes()
	default:
		t.Fatalf("unknown store kind %q", kind)
	}
	path := filepath.Join(dir, name+"."+strings.ToLower(kind))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// ClusterOptions configure a secured kfake cluster.
type ClusterOptions struct {
	// TLS serves TLS with this server certificate when set.
	TLS *tls.Certificate
	// ClientCAs requires client certificates signed by this CA (mTLS).
	ClientCAs *x509.Certificate
	// SASL users: mechanism → user → password (PLAIN, SCRAM-SHA-256,
	// SCRAM-SHA-512). None means no SASL.
	Users map[string]map[string]string
	// RejectSASL answers every SaslAuthenticate with
	// SASL_AUTHENTICATION_FAILED and this message, as a real broker does
	// for a wrong password (kfake itself just closes the connection).
	RejectSASL string
}

// StartCluster starts a one-node kfake cluster on 127.0.0.1 that the test
// closes, and returns its bootstrap address.
func StartCluster(t testing.TB, o ClusterOptions) (*kfake.Cluster, string) {
	t.Helper()
	// kfake listens on 127.0.0.1 only.
	opts := []kfake.Opt{kfake.NumBrokers(1)}
	if o.TLS != nil {
		cfg := &tls.Config{Certificates: []tls.Certificate{*o.TLS}, MinVersion: tls.VersionTLS12}
		if o.ClientCAs != nil {
			pool := x509.NewCertPool()
			pool.AddCert(o.ClientCAs)
			cfg.ClientCAs, cfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
		}
		opts = append(opts, kfake.TLS(cfg))
	}
	if len(o.Users) > 0 {
		opts = append(opts, kfake.EnableSASL())
		for mech, users := range o.Users {
			for u, p := range users {
				opts = append(opts, kfake.Superuser(mech, u, p))
			}
		}
	}
	c, err := kfake.NewCluster(opts...)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	if o.RejectSASL != "" {
		msg := o.RejectSASL
		c.ControlKey(36, func(req kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			resp := req.ResponseKind().(*kmsg.SASLAuthenticateResponse)
			resp.ErrorCode = 58 // SASL_AUTHENTICATION_FAILED
			resp.ErrorMessage = &msg
			return resp, nil, true
		})
	}
	return c, c.ListenAddrs()[0]
}
