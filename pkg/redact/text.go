package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Credentials written in text (a log line, an error message, a body) are masked by their
// form, since they were never registered: a URL's password (postgres://user:xxxxx@db), the
// values of credential-looking query parameters (?password=xxxxx), key=value and "key":
// "value" pairs whose key ends in a credential word (password, secret, token, api key...),
// and an Authorization header's value.
var (
	// userinfo is a URL's user information: scheme://USER[:PASSWORD]@.
	userinfo = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/?#@"'<>]+)@`)
	})
	// queryParam is a parameter of a URL's query: ?NAME=VALUE or &NAME=VALUE.
	queryParam = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([?&])([^\s=&#"'<>]+)=([^\s&#"'<>]*)`)
	})
	// pair is a key=value, key="value" or "key": "value" whose key ends in a credential
	// word. A plain "key" is no credential word (controllers log object keys: key=ns/name),
	// and a key followed by a colon outside quotes is prose ("invalid token: ...").
	pair = sync.OnceValue(func() *regexp.Regexp {
		const words = `[\w.\-]*(?i:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|credentials?)`
		return regexp.MustCompile(`("` + words + `"\s*:\s*|\b` + words + `\s*=\s*)("[^"]*"|'[^']*'|[^\s,;&"'}\]]+)`)
	})
	// authorization is an Authorization (or Proxy-Authorization) header's value, written as a
	// header, a quoted key or a pair.
	authorization = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`((?:Proxy-)?Authorization:[ \t]*|"(?i:(?:proxy-)?authorization)"\s*:\s*|\b(?i:(?:proxy-)?authorization)\s*=\s*)` +
			`("[^"]*"|'[^']*'|[^\s,;"'\]]+(?:[ \t]+[^\s,;"'\]]+)?)`)
	})
)

// inText masks the credentials written in s by their form.
func inText(s string) string {
	if !strings.ContainsAny(s, "@=:") {
		return s
	}
	s = userinfo().ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfo().FindStringSubmatch(m)
		user, password, hasPassword := strings.Cut(sub[2], ":")
		if password == urlMask || !hasPassword && user == urlMask {
			return m // masked already
		}
		if !hasPassword {
			user = urlMask // a token given as the user
		}
		return sub[1] + user + ":" + urlMask + "@"
	})
	s = queryParam().ReplaceAllStringFunc(s, func(m string) string {
		sub := queryParam().FindStringSubmatch(m)
		if sub[3] == "" || sub[3] == urlMask || !credentialParam().MatchString(sub[2]) {
			return m
		}
		return sub[1] + sub[2] + "=" + urlMask
	})
	s = authorization().ReplaceAllStringFunc(s, func(m string) string {
		sub := authorization().FindStringSubmatch(m)
		value := strings.Trim(sub[2], `"'`)
		scheme, _, twoWords := strings.Cut(value, " ")
		if twoWords && (strings.EqualFold(scheme, "bearer") || strings.EqualFold(scheme, "basic")) {
			return m // the scheme's own rule masks the credential
		}
		// "token X", "Sig X": the scheme stays readable when it is a word.
		if twoWords && strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			return sub[1] + scheme + " " + Mask
		}
		return sub[1] + Mask
	})
	return pair().ReplaceAllStringFunc(s, func(m string) string {
		sub := pair().FindStringSubmatch(m)
		v := strings.Trim(sub[2], `"'`)
		if v == "" || v == urlMask || strings.HasPrefix(v, strings.TrimSuffix(Mask, "]")) ||
			strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
			return m // nothing to hide, masked already, or a switch (--use-credentials=true)
		}
		return sub[1] + Mask
	})
}
