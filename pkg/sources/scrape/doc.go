// Package scrape fetches metrics pages from targets. A Source reads one target: a URL over
// HTTP(S) (URLSource), or saved pages (FileSource). Cluster transports (API-server proxy,
// port-forward) implement the same interface. Every body is size-capped and transparently
// gunzipped; errors name the target and say what to do, and never contain a token.
package scrape
