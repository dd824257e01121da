// Package golden holds a test's output to a file under testdata: the test fails on the first
// line that differs, and with update (each test package's -update flag) writes the file instead.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Check compares got with the file at path, or, with update, writes got there (and the
// folders it needs). hint says how to rewrite the file ("go test ./pkg/print/render -update").
func Check(t testing.TB, path string, got []byte, update bool, hint string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, hint)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (%s rewrites it once the change is checked):\n%s", path, hint, FirstDiff(want, got))
	}
}

// FirstDiff shows the first line that differs between want and got.
func FirstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + "\n- " + a + "\n+ " + b
		}
	}
	return ""
}
