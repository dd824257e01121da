package scrape

import (
	"net/http"
	"strings"
	"testing"
)

// A --url value that is no http or https URL with a host is refused showing it as typed, without
// its password, and saying what is missing: the http:// meant when the scheme is left out.
func TestURLValuesAreRefusedInTheUsersWords(t *testing.T) {
	for raw, want := range map[string]string{
		"127.0.0.1:8080/metrics":               `--url "127.0.0.1:8080/metrics": not a URL with a scheme; did you mean http://127.0.0.1:8080/metrics?`,
		"localhost:9090":                       `--url "localhost:9090": not a URL with a scheme; did you mean http://localhost:9090?`,
		"u:" + secret + "@10.0.0.1:8080/m":     `--url "u:xxxxx@10.0.0.1:8080/m": not a URL with a scheme; did you mean http://u:xxxxx@10.0.0.1:8080/m?`,
		"http:10.0.0.1:8080/metrics":           `--url "http:10.0.0.1:8080/metrics": not a URL with a scheme; did you mean http://10.0.0.1:8080/metrics?`,
		"ftp://x/metrics":                      `--url "ftp://x/metrics": the scheme must be http or https, not ftp`,
		"http://":                              `--url "http:": no host, e.g. http://127.0.0.1:8080/metrics`,
		"https://user:" + secret + "@/x":       `--url "https://user:xxxxx@/x": no host, e.g. http://127.0.0.1:8080/metrics`,
		"http://[::1/metrics":                  `--url "http://[::1/metrics": not a URL: missing ']' in host`,
		"http://a:" + secret + "@[::1/metrics": `--url "http://xxxxx@[::1/metrics": not a URL: missing ']' in host`,
	} {
		_, err := NewURLSource(raw, http.DefaultClient, HTTPConfig{})
		if err == nil || err.Error() != want {
			t.Errorf("NewURLSource(%q) = %v\nwant %s", raw, err, want)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("NewURLSource(%q) = %v: prints the password", raw, err)
		}
	}
	if s, err := NewURLSource("https://u:"+secret+"@h:8443/metrics", http.DefaultClient, HTTPConfig{}); err != nil || s.Name() != "https://u:xxxxx@h:8443/metrics" {
		t.Errorf("a good URL: %v %v", s, err)
	}
}
