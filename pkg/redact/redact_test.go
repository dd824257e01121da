package redact

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriterMasksSecretsAndBearerTokens(t *testing.T) {
	Add("registered-secret-1", "", "  ")
	var out bytes.Buffer
	w := Writer(&out)
	for _, line := range []string{
		`data="GET / HTTP/1.1\r\nAuthorization: Bearer eyJhbGciOi.J9-x_y\r\n\r\n"` + "\n",
		`you sent \"Bearer abc/def+ghi==\"` + "\n",
		"token registered-secret-1 in a message\n",
		"Authorization: Bearer <masked>\n",
	} {
		if n, err := w.Write([]byte(line)); err != nil || n != len(line) {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	got := out.String()
	for _, leak := range []string{"eyJhbGciOi", "abc/def", "registered-secret-1"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q is not masked:\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "Bearer <masked>") || strings.Count(got, Mask) != 3 {
		t.Errorf("masks:\n%s", got)
	}
}
