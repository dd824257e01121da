package redact

import "encoding/base64"

// AddBasicAuth registers basic auth credentials in every form they are printed in: the
// password, USER:PASSWORD, and its base64 (which is what an "Authorization: Basic" header
// carries). The user name alone is not a secret and stays readable.
func AddBasicAuth(user, password string) {
	if password == "" {
		return
	}
	pair := user + ":" + password
	Add(password, pair, base64.StdEncoding.EncodeToString([]byte(pair)))
}

// AddHeader registers the value of a header sent to a server, and its base64: a server may
// echo it either way.
func AddHeader(value string) {
	if value == "" {
		return
	}
	Add(value, base64.StdEncoding.EncodeToString([]byte(value)))
}
