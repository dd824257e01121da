package printer

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// writeJSONSeeds are documents of every shape: nesting, empty objects and lists, strings with
// quotes, escapes, brackets, HTML and wide characters, numbers.
var writeJSONSeeds = []string{
	`{}`, `[]`, `null`, `"x"`, `1.5e-7`, `[{}]`, `{"a":[]}`, `[[],[{}],{"b":{}}]`,
	`{"a":"x\"y\\","b":[1,2,{"c":"}{][,:"}],"d":null,"e":true,"f":false}`,
	`{"html":"<a href=\"x\">&amp;</a>","wide":"é\u2028\u0007\ud83d\ude00","ctl":"\u001b[31m"}`,
	`{"z":1,"a":{"y":[1,-0.25,12345678901234567890],"b":"\\\\\""}}`,
}

// FuzzWriteJSON checks that -o json writes exactly what encoding/json's indenting encoder
// writes (then made printable), for any document.
func FuzzWriteJSON(f *testing.F) {
	for _, s := range writeJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var v any
		if json.Unmarshal(doc, &v) != nil {
			return
		}
		checkWriteJSON(t, v)
	})
}

// The seeds, and a struct with tags, agree in plain `go test` as well.
func TestWriteJSONAsEncodingJSON(t *testing.T) {
	for _, s := range writeJSONSeeds {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		checkWriteJSON(t, v)
	}
	checkWriteJSON(t, struct {
		A []int          `json:"a"`
		B map[string]any `json:"b,omitempty"`
		C *struct{}      `json:"c"`
		D [0]string      `json:"d"`
	}{A: []int{}, C: &struct{}{}})
}

func checkWriteJSON(t *testing.T, v any) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := Write(&got, "json", v, false); err != nil {
		t.Fatal(err)
	}
	if w := printable.Quoted(want.Bytes()); !bytes.Equal(got.Bytes(), w) {
		t.Fatalf("-o json of %#v wrote\n%s\nwhere encoding/json writes\n%s", v, got.Bytes(), w)
	}
}
