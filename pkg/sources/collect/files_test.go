package collect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseFilesNamesTargets(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, p := range []string{"before", "after", "x=y.prom"} {
		if strings.Contains(p, ".") {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	type named struct {
		name  string
		paths []string
		chose bool
	}
	for _, tc := range []struct {
		in   []string
		want []named
	}{
		{[]string{"/tmp/pages/kcm.prom"}, []named{{"kcm.prom", []string{"/tmp/pages/kcm.prom"}, false}}},
		// A two-page target is named by its AFTER page.
		{[]string{"p/kcm-1.prom,p/kcm-2.prom"}, []named{{"kcm-2.prom", []string{"p/kcm-1.prom", "p/kcm-2.prom"}, false}}},
		{[]string{"kcm=p/kcm-1.prom,p/kcm-2.prom"}, []named{{"kcm", []string{"p/kcm-1.prom", "p/kcm-2.prom"}, true}}},
		{[]string{"my.kcm_2-a=/x/a.prom"}, []named{{"my.kcm_2-a", []string{"/x/a.prom"}, true}}},
		// A "/" before "=" is a path; so is what exists as written.
		{[]string{"./a=b.prom"}, []named{{"a=b.prom", []string{"./a=b.prom"}, false}}},
		{[]string{"dir/a=b.prom"}, []named{{"a=b.prom", []string{"dir/a=b.prom"}, false}}},
		{[]string{"x=y.prom"}, []named{{"x=y.prom", []string{"x=y.prom"}, false}}},
		{[]string{"-"}, []named{{"stdin", []string{"-"}, false}}},
		{[]string{"kcm=-"}, []named{{"kcm", []string{"-"}, true}}},
		// The same base name twice: as many path elements as tell them apart.
		{[]string{"before/kcm.prom", "after/kcm.prom", "other.prom"}, []named{
			{"before/kcm.prom", []string{"before/kcm.prom"}, false},
			{"after/kcm.prom", []string{"after/kcm.prom"}, false},
			{"other.prom", []string{"other.prom"}, false}}},
		{[]string{"/a/same/kcm.prom", "/b/same/kcm.prom"}, []named{
			{"a/same/kcm.prom", []string{"/a/same/kcm.prom"}, false},
			{"b/same/kcm.prom", []string{"/b/same/kcm.prom"}, false}}},
		// The same page twice, and a base name another target chose.
		{[]string{"/p/kcm.prom", "/p/kcm.prom"}, []named{
			{"kcm.prom", []string{"/p/kcm.prom"}, false},
			{"kcm.prom#2", []string{"/p/kcm.prom"}, false}}},
		{[]string{"/a/kcm.prom", "/b/kcm.prom", "/a/kcm.prom"}, []named{
			{"a/kcm.prom", []string{"/a/kcm.prom"}, false},
			{"b/kcm.prom", []string{"/b/kcm.prom"}, false},
			{"a/kcm.prom#2", []string{"/a/kcm.prom"}, false}}},
		{[]string{"kcm.prom=/p/a.prom", "/p/kcm.prom"}, []named{
			{"kcm.prom", []string{"/p/a.prom"}, true},
			{"p/kcm.prom", []string{"/p/kcm.prom"}, false}}},
	} {
		got, err := ParseFiles(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		var g []named
		for _, fp := range got {
			g = append(g, named{fp.Name, fp.Paths, fp.Named})
		}
		if !reflect.DeepEqual(g, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.in, g, tc.want)
		}
	}
	// Distinct names whatever is given: a base name taken by a chosen NAME, twice.
	got, err := ParseFiles([]string{"/kcm.prom=a.prom", "kcm.prom=" + filepath.Join(dir, "b.prom"), "/kcm.prom", "/kcm.prom"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, fp := range got {
		if seen[fp.Name] {
			t.Errorf("two targets named %q: %+v", fp.Name, got)
		}
		seen[fp.Name] = true
	}
}

func TestParseFilesRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"a,b,c":             "give one path, or two as BEFORE,AFTER",
		"":                  "give one path",
		"n=":                "give one path",
		",a":                "give one path",
		"n=a,":              "give one path",
		"-|-":               `standard input ("-") can be read only once`,
		"n=a.prom|n=b.prom": `the name "n" is given to two targets`,
	} {
		_, err := ParseFiles(strings.Split(in, "|"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
