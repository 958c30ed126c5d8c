package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Files written into --cert-dir.
const (
	caCertFile     = "ca.crt"
	servingCert    = "tls.crt"
	servingKey     = "tls.key"
	clientCertFile = "client.crt"
	clientKeyFile  = "client.key"
	clientCAFile   = "client-ca.crt"
)

type keyPair struct {
	cert *x509.Certificate
	der  []byte
	key  *ecdsa.PrivateKey
}

func serial() (*big.Int, error) {
	return rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
}

func newKeyPair(tmpl *x509.Certificate, parent *keyPair) (*keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	sn, err := serial()
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = sn
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(7 * 24 * time.Hour)
	signerCert, signerKey := tmpl, key
	if parent != nil {
		signerCert, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signerCert, &key.PublicKey, signerKey)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &keyPair{cert: cert, der: der, key: key}, nil
}

func writePEM(path, typ string, der []byte, mode os.FileMode) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode)
}

func (k *keyPair) write(dir, certName, keyName string) error {
	if err := writePEM(filepath.Join(dir, certName), "CERTIFICATE", k.der, 0o644); err != nil {
		return err
	}
	if keyName == "" {
		return nil
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.key)
	if err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, keyName), "PRIVATE KEY", der, 0o600)
}

// writeCertificates generates a fresh self-signed CA, a serving certificate for 127.0.0.1, ::1 and localhost
// and a client certificate (usable with --client-ca <dir>/ca.crt), all signed by that CA.
func writeCertificates(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ca, err := newKeyPair(&x509.Certificate{
		Subject:               pkix.Name{CommonName: "capi-interop-ca", Organization: []string{"runtime-sdk interop"}},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}, nil)
	if err != nil {
		return fmt.Errorf("generating CA: %w", err)
	}
	serving, err := newKeyPair(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "capi-interop-extension"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca)
	if err != nil {
		return fmt.Errorf("generating serving certificate: %w", err)
	}
	client, err := newKeyPair(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "capi-interop-client"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca)
	if err != nil {
		return fmt.Errorf("generating client certificate: %w", err)
	}
	if err := ca.write(dir, caCertFile, ""); err != nil {
		return err
	}
	if err := serving.write(dir, servingCert, servingKey); err != nil {
		return err
	}
	return client.write(dir, clientCertFile, clientKeyFile)
}
