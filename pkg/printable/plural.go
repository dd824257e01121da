// This file writes counts of things in English: "1 queue", "2 queues", "0 queues".

package printable

import "fmt"

// Plural is n and the noun, in the plural unless n is 1. Nouns ending in a consonant and y take
// -ies, nouns ending in s (series) stay as they are, the others take -s.
func Plural(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, PluralNoun(n, noun))
}

// PluralNoun is the noun alone, in the plural unless n is 1.
func PluralNoun(n int, noun string) string {
	if n == 1 || noun == "" {
		return noun
	}
	last := noun[len(noun)-1]
	switch {
	case last == 's':
		return noun
	case last == 'y' && len(noun) > 1 && !isVowel(noun[len(noun)-2]):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// PluralVerb is the present tense of a verb after n things: "is" or "are", "has" or "have", "waits" or
// "wait" (the verb given in its plural form, "is" and "has" excepted).
func PluralVerb(n int, plural string) string {
	if n != 1 {
		return plural
	}
	switch plural {
	case "are":
		return "is"
	case "have":
		return "has"
	}
	return plural + "s"
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}
