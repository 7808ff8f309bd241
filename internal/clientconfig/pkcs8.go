package clientconfig

import (
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"hash"
	"strings"

	"github.com/youmark/pkcs8"
)

// Kafka's PEM key stores take PKCS#8 keys, encrypted with ssl.key.password
// when it is set. Go's standard library parses only unencrypted PKCS#8;
// github.com/youmark/pkcs8 decrypts the PBES2 scheme (RFC 8018) that
// openssl and Java write.

var errBadKeyPassword = errors.New("cannot decrypt the private key: wrong ssl.key.password?")

// The library's PBKDF2 knows the PRFs hmacWithSHA1 and hmacWithSHA256 only;
// openssl (-v2prf) and Java (PBEWithHmacSHA512AndAES_256) also write the
// rest of the SHA-2 family, so its PBKDF2 is replaced by one that knows
// them and bounds the iteration count a key file can make us spend.
func init() {
	pkcs8.RegisterKDF(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}, func() pkcs8.KDFParameters { return new(pbkdf2Params) })
}

var pbkdf2PRFs = map[string]func() hash.Hash{
	"1.2.840.113549.2.7":  sha1.New,
	"1.2.840.113549.2.8":  sha256.New224,
	"1.2.840.113549.2.9":  sha256.New,
	"1.2.840.113549.2.10": sha512.New384,
	"1.2.840.113549.2.11": sha512.New,
}

type pbkdf2Params struct {
	Salt       []byte
	Iterations int
	KeyLength  int                      `asn1:"optional"`
	PRF        pkix.AlgorithmIdentifier `asn1:"optional"`
}

func (p *pbkdf2Params) DeriveKey(password []byte, size int) ([]byte, error) {
	prf := sha1.New
	if len(p.PRF.Algorithm) > 0 {
		if prf = pbkdf2PRFs[p.PRF.Algorithm.String()]; prf == nil {
			return nil, fmt.Errorf("unsupported PBKDF2 PRF %v", p.PRF.Algorithm)
		}
	}
	if p.Iterations <= 0 || p.Iterations > 10_000_000 {
		return nil, errors.New("malformed PBKDF2 iteration count")
	}
	return pbkdf2.Key(prf, string(password), p.Salt, p.Iterations, size)
}

// decryptPKCS8 decrypts a DER EncryptedPrivateKeyInfo and parses the key.
func decryptPKCS8(der []byte, password string) (key any, err error) {
	// The library hands the IV and the ciphertext to crypto/cipher
	// unchecked, which panics on a wrong length: a broken key file.
	defer func() {
		if recover() != nil {
			key, err = nil, errors.New("malformed encrypted private key")
		}
	}()
	key, _, err = pkcs8.ParsePrivateKey(der, []byte(password))
	switch {
	case err == nil:
		return key, nil
	case err.Error() == "pkcs8: incorrect password":
		return nil, errBadKeyPassword
	default:
		return nil, errors.New(strings.TrimPrefix(err.Error(), "pkcs8: "))
	}
}
