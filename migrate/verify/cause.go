package verify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// failureCause says in plain words why a side's answer to a request was not usable:
// the network failure (DNS, a refused connection, TLS, a timeout) or the status it
// answered, for the side at base (scheme://host[:port]…).
func failureCause(base string, a answer) string {
	host := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		host = u.Host
	}
	if err := a.err; err != nil {
		var dns *net.DNSError
		var unknownCA x509.UnknownAuthorityError
		var badName x509.HostnameError
		var invalid x509.CertificateInvalidError
		var verify *tls.CertificateVerificationError
		var record tls.RecordHeaderError
		var nerr net.Error
		switch {
		case errors.As(err, &dns):
			return fmt.Sprintf("cannot resolve host %s (%s)", dns.Name, dns.Err)
		case errors.Is(err, syscall.ECONNREFUSED):
			return fmt.Sprintf("nothing listens at %s (connection refused)", host)
		case errors.As(err, &unknownCA), errors.As(err, &verify) && errors.As(verify.Err, &unknownCA):
			return fmt.Sprintf("TLS: the certificate of %s is signed by an authority this machine does not trust", host)
		case errors.As(err, &badName):
			return fmt.Sprintf("TLS: the certificate of %s is not valid for that name (%v)", host, badName)
		case errors.As(err, &invalid):
			return fmt.Sprintf("TLS: the certificate of %s is not valid (%v)", host, invalid)
		case errors.As(err, &verify):
			return fmt.Sprintf("TLS: the certificate of %s was refused (%v)", host, verify.Err)
		case errors.As(err, &record), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
			return fmt.Sprintf("TLS: %s does not answer TLS (is the URL http rather than https?)", host)
		case errors.Is(err, context.DeadlineExceeded), errors.As(err, &nerr) && nerr.Timeout():
			return fmt.Sprintf("no answer from %s in time (timeout)", host)
		}
		return fmt.Sprintf("%s could not be reached: %v", host, err)
	}
	switch a.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Sprintf("%s refused the key (%d): check that it is a user key (NRAK-...) of the account", host, a.status)
	case http.StatusNotFound:
		return fmt.Sprintf("%s answered 404: check the URL (REST v2's ends in /v2)", host)
	}
	return fmt.Sprintf("%s answered %d", host, a.status)
}
