package findings

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every threshold has a unit and a meaning, and every description names a threshold.
func TestThresholdDocsAreComplete(t *testing.T) {
	names := map[string]bool{}
	for _, n := range ThresholdNames() {
		names[n] = true
		if d := thresholdDocs[n]; d.unit == "" || d.meaning == "" {
			t.Errorf("threshold %s has no unit or meaning in thresholdDocs", n)
		}
	}
	for n := range thresholdDocs {
		if !names[n] {
			t.Errorf("thresholdDocs describes %q, which is no threshold", n)
		}
	}
	for _, d := range ThresholdDocs() {
		if d.Default == "" || d.Default == "0" {
			t.Errorf("threshold %s: default %q", d.Name, d.Default)
		}
	}
}

// The thresholds a catalog entry lists exist.
func TestCatalogThresholdsExist(t *testing.T) {
	names := map[string]bool{}
	for _, n := range ThresholdNames() {
		names[n] = true
	}
	used := 0
	for _, d := range Catalog() {
		for _, n := range d.Thresholds {
			used++
			if !names[n] {
				t.Errorf("%s %s lists threshold %q, which does not exist", d.Code, d.Check, n)
			}
		}
	}
	if used == 0 {
		t.Error("no catalog entry lists a threshold")
	}
}

// docs/guide/checks.md's list of thresholds, written by hand, gives every threshold with its
// default.
func TestGuideThresholdDefaults(t *testing.T) {
	b, err := os.ReadFile("../../../docs/guide/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	guide := strings.Join(strings.Fields(string(b)), " ")
	for _, d := range ThresholdDocs() {
		m := regexp.MustCompile("`" + d.Name + "` ([0-9][0-9.a-z]*)").FindStringSubmatch(guide)
		if m == nil {
			t.Errorf("docs/guide/checks.md does not give threshold %s with its default", d.Name)
			continue
		}
		if !sameValue(strings.TrimSuffix(m[1], "."), d.Default) {
			t.Errorf("docs/guide/checks.md gives %s as %s, the default is %s", d.Name, m[1], d.Default)
		}
	}
}

func sameValue(a, b string) bool {
	if x, err := strconv.ParseFloat(a, 64); err == nil {
		y, err := strconv.ParseFloat(b, 64)
		return err == nil && x == y
	}
	x, err1 := time.ParseDuration(a)
	y, err2 := time.ParseDuration(b)
	return err1 == nil && err2 == nil && x == y
}
