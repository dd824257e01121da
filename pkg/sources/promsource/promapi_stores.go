package promsource

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
)

// maxStoresBytes bounds the answer of /api/v1/stores read: only its status matters.
const maxStoresBytes = 1 << 20

// HasStores reports whether the server is a Thanos Query, the one engine that answers from
// stores it lists at /api/v1/stores and that may answer from downsampled data. Prometheus,
// Mimir and VictoriaMetrics refuse that path as unknown (404, 400: false). ok is false when
// the question went unanswered (unreachable, credentials refused, a server error, a timeout,
// an answer that is not the API's): then it is not known.
func (c *Client) HasStores(ctx context.Context) (has, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	u := *c.base
	u.Path += "/api/v1/stores"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, false
	}
	c.authorize(req)
	c.count(Stats{Queries: 1})
	resp, err := c.http.Do(req)
	if err != nil {
		return false, false
	}
	defer func() { _ = resp.Body.Close() }()
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusTooManyRequests || code >= 500:
		return false, false
	case code >= 400:
		return false, true
	case code != http.StatusOK:
		return false, false
	}
	var body struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxStoresBytes)).Decode(&body); err != nil || body.Status != "success" {
		return false, false
	}
	return true, true
}
