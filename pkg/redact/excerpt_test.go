package redact

import (
	"strings"
	"testing"
)

func TestExcerptIsBoundedSanitisedAndRedacted(t *testing.T) {
	Add("excerpt-secret-1")
	body := "<html>\n\t<h1>401</h1> you sent Authorization: Bearer excerpt-secret-1\r\n\x1b]0;pwned\x07 \x1b[2J\n::error file=x::pwned \xff" +
		strings.Repeat(" filler", 100)
	got := Excerpt([]byte(body))
	if strings.Contains(got, "excerpt-secret-1") {
		t.Errorf("the secret shows: %s", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\n\r\t") || strings.Contains(got, "\xff") {
		t.Errorf("raw controls: %q", got)
	}
	if !strings.HasPrefix(got, `<html> <h1>401</h1> you sent Authorization: Bearer [REDACTED] \x1b]0;pwned\x07 \x1b[2J ::error file=x::pwned \xff filler`) {
		t.Errorf("excerpt: %s", got)
	}
	if len(got) > ExcerptBytes+len("...") || !strings.HasSuffix(got, "...") {
		t.Errorf("not bounded (%d bytes): %s", len(got), got)
	}
	if Excerpt([]byte(" \n ")) != "" || ExcerptString("short") != "short" {
		t.Error("blank or short bodies")
	}
	// A cut never splits an escape or a character.
	long := strings.Repeat("é\x1b", 200)
	if got := Excerpt([]byte(long)); !strings.HasSuffix(got, `\x1b...`) && !strings.HasSuffix(got, "é...") {
		t.Errorf("cut inside an escape: %q", got[len(got)-10:])
	}
}
