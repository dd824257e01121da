package printable

import (
	"encoding/json"
	"testing"
)

// DEL, C1 and bidi runes in a JSON document become \u escapes that decode to the same string.
func TestQuotedKeepsTheDataExact(t *testing.T) {
	in := "q\u202e\u0085\u2066é\x7f"
	doc, err := json.Marshal(map[string]string{"queue": in})
	if err != nil {
		t.Fatal(err)
	}
	out := Quoted(doc)
	if want := `{"queue":"q\u202e\u0085\u2066é\u007f"}`; string(out) != want {
		t.Errorf("Quoted = %s, want %s", out, want)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["queue"] != in {
		t.Errorf("read back %q (%v), want %q", back["queue"], err, in)
	}
	plain := []byte(`{"queue":"é"}`)
	if got := Quoted(plain); &got[0] != &plain[0] {
		t.Errorf("a document with nothing to escape is copied")
	}
}
