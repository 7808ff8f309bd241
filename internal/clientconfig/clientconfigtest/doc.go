// Package clientconfigtest makes TLS material and secured kfake clusters for
// tests of --command-config: an in-memory CA with server and client
// certificates, trust and key stores written as PEM, PKCS12 and JKS with
// the same libraries the client reads them with, and a kfake cluster with
// TLS and SASL. It is imported only from tests.
package clientconfigtest
