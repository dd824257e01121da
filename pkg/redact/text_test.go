package redact

import (
	"strings"
	"testing"
)

// Credentials that a log line or an error message carries in the clear are masked by their
// form, and the text around them, object keys and prose included, stays readable.
func TestStringMasksCredentialsWrittenInText(t *testing.T) {
	for _, tc := range []struct{ in, want, secret string }{
		{`Reconciler error: dial postgres://app:S3cretPass@db.shop:5432/orders failed`,
			`Reconciler error: dial postgres://app:xxxxx@db.shop:5432/orders failed`, "S3cretPass"},
		{`GET https://ghp_abcdef123456@github.example/x`, `GET https://xxxxx:xxxxx@github.example/x`, "ghp_abcdef123456"},
		{`fetch https://api.example/v1?user=bob&password=hunter22&page=2: 500`,
			`fetch https://api.example/v1?user=bob&password=xxxxx&page=2: 500`, "hunter22"},
		{`calling /hook?access_token=tok-9f8e7d6c`, `calling /hook?access_token=xxxxx`, "tok-9f8e7d6c"},
		{`msg="login" db_password="pa ss" user=bob`, `msg="login" db_password=` + Mask + ` user=bob`, "pa ss"},
		{`client_secret=abc123xyz token=t0k3n`, `client_secret=` + Mask + ` token=` + Mask, "abc123xyz"},
		{`{"apiKey":"AIzaSyXXXX","name":"x"}`, `{"apiKey":` + Mask + `,"name":"x"}`, "AIzaSyXXXX"},
		{`sent Authorization: token 0123456789abcdef to the hook`, `sent Authorization: token ` + Mask + ` to the hook`, "0123456789abcdef"},
		{`headers map[authorization=Sig-abc.def]`, `headers map[authorization=` + Mask + `]`, "Sig-abc.def"},
	} {
		got := String(tc.in)
		if got != tc.want {
			t.Errorf("String(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, tc.secret) {
			t.Errorf("String(%q) still shows %q", tc.in, tc.secret)
		}
	}
	for _, prose := range []string{
		`Reconciler error: key=shop/cart: Operation cannot be fulfilled`,
		`invalid bearer token: the server has asked for the client to provide credentials`,
		`secretName=tls-cert not found`,
		`Get "https://10.0.0.1:8443/metrics": x509: certificate signed by unknown authority`,
		`failed authorization: user cannot list pods`,
		`contact admin@example.com`,
	} {
		if got := String(prose); got != prose {
			t.Errorf("String(%q) = %q, want it unchanged", prose, got)
		}
	}
}
