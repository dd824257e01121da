package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestAddBasicAuthMasksEveryForm(t *testing.T) {
	AddBasicAuth("prom-user", "basic-pass-1")
	b64 := base64.StdEncoding.EncodeToString([]byte("prom-user:basic-pass-1"))
	got := String("echo: Authorization: Basic " + b64 + " pair prom-user:basic-pass-1 alone basic-pass-1")
	for _, leak := range []string{"basic-pass-1", b64} {
		if strings.Contains(got, leak) {
			t.Errorf("%q is not masked: %s", leak, got)
		}
	}
	if !strings.Contains(got, "Basic "+Mask) {
		t.Errorf("the header is not kept readable: %s", got)
	}
}

func TestAddHeaderMasksTheValueAndItsBase64(t *testing.T) {
	AddHeader("hdr-secret-value")
	b64 := base64.StdEncoding.EncodeToString([]byte("hdr-secret-value"))
	got := String("X-Api-Key: hdr-secret-value, or " + b64)
	if strings.Contains(got, "hdr-secret-value") || strings.Contains(got, b64) {
		t.Errorf("not masked: %s", got)
	}
}

func TestSchemeCredentialsAreMaskedButProseIsNot(t *testing.T) {
	for in, want := range map[string]string{
		"Authorization: Basic dW5yZWdpc3RlcmVkOnB3":                        "Authorization: Basic " + Mask,
		"the endpoint rejected the bearer token: check --token":            "the endpoint rejected the bearer token: check --token",
		"basic auth (--prometheus-basic-auth-file) and bearer credentials": "basic auth (--prometheus-basic-auth-file) and bearer credentials",
		"Bearer Zm9vYmFyYmF6": "Bearer " + Mask,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
