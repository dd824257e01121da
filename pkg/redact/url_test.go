package redact

import (
	"net/url"
	"strings"
	"testing"
)

func TestURLHidesThePasswordAndCredentialQueryValues(t *testing.T) {
	u, _ := url.Parse("https://alice:url-pass-1@prom.example:9090/api?token=tok-q-1&access_token=tok-q-2&apikey=k1&key=k2&password=p&secret=s&auth=a&step=15s")
	got := URL(u)
	want := "https://alice:xxxxx@prom.example:9090/api?token=xxxxx&access_token=xxxxx&apikey=xxxxx&key=xxxxx&password=xxxxx&secret=xxxxx&auth=xxxxx&step=15s"
	if got != want {
		t.Errorf("URL = %s\nwant  %s", got, want)
	}
	if u.RawQuery == "" || !strings.Contains(u.RawQuery, "tok-q-1") {
		t.Errorf("URL changed its argument: %s", u)
	}
	for raw, want := range map[string]string{
		"http://bob:url-pass-2@host:9090/%zz?token=tok-q-3": "http://xxxxx@host:9090/%zz?token=xxxxx",
		"prom:9090":                      "prom:9090",
		"http://host/?Token=tok-q-4&x=1": "http://host/?Token=xxxxx&x=1",
	} {
		if got := URLString(raw); got != want {
			t.Errorf("URLString(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestAddURLRegistersWhatTheURLCarries(t *testing.T) {
	u, _ := url.Parse("https://carol:url-pass-5@host/metrics?token=tok-q-5&format=text")
	AddURL(u)
	got := String("Basic Y2Fyb2w6dXJsLXBhc3MtNQ== url-pass-5 tok-q-5 format=text")
	for _, leak := range []string{"Y2Fyb2w6dXJsLXBhc3MtNQ==", "url-pass-5", "tok-q-5"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q is not masked: %s", leak, got)
		}
	}
	if !strings.Contains(got, "format=text") {
		t.Errorf("a plain parameter is masked: %s", got)
	}
}

// user:password@host:port without a scheme parses as the scheme "user" with the rest opaque, so
// url.URL.Redacted keeps the password: URLString must not.
func TestURLStringHidesThePasswordOfAURLWithoutScheme(t *testing.T) {
	for raw, want := range map[string]string{
		"alice:url-pass-5@10.0.0.1:8080/metrics": "xxxxx@10.0.0.1:8080/metrics",
		"mailto:ops@example.com":                 "xxxxx@example.com",
		"localhost:9090":                         "localhost:9090",
	} {
		if got := URLString(raw); got != want {
			t.Errorf("URLString(%q) = %q, want %q", raw, got, want)
		}
	}
}
