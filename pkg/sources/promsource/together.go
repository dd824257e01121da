package promsource

import (
	"context"
	"sync"
	"time"
)

// instant is one instant query: an expression evaluated at a time.
type instant struct {
	expr string
	at   time.Time
}

// queryTogether sends instant queries whose answers do not depend on each other all at once:
// the server evaluates one while the answer of another is read, where one after the other
// the reading would wait for each evaluation. A query sent ahead (see ahead) with the same
// expression, time and resolution is not sent again: its answer is awaited. The answers come
// in the order asked; the error is that of the first query, in that order, that failed (each
// is sent whatever the others answer: the number of queries a run costs does not depend on
// the order they finish in).
func queryTogether(ctx context.Context, c *Client, sent *ahead, qs ...instant) ([]*Response, error) {
	out := make([]*Response, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		if a := sent.take(c, q); a != nil {
			wg.Go(func() { out[i], errs[i] = a.wait(ctx) })
			continue
		}
		wg.Go(func() { out[i], errs[i] = c.Query(ctx, q.expr, q.at) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ahead are queries sent before their answers were needed, while the targets were looked for:
// each is taken once, by a reading that asks the same at the same resolution. It is used by
// the goroutine that opens and reads the source (only the answers are written elsewhere). A
// nil *ahead holds none.
type ahead struct {
	answers map[aheadKey]*answer
	cancel  context.CancelFunc
}

// aheadKey is what makes two queries the same: expression, time and the resolution the client
// let the server answer from.
type aheadKey struct {
	expr, resolution string
	at               int64
}

// answer is the answer of one query sent ahead, once done is closed.
type answer struct {
	done chan struct{}
	resp *Response
	err  error
}

// sendAhead sends the queries now, under ctx, each answer kept until taken or dropped.
func sendAhead(ctx context.Context, c *Client, qs ...instant) *ahead {
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{answers: map[aheadKey]*answer{}, cancel: cancel}
	for _, q := range qs {
		an := &answer{done: make(chan struct{})}
		key := keyOf(c, q)
		a.answers[key] = an
		go func() {
			defer close(an.done)
			an.resp, an.err = c.QueryResolution(ctx, q.expr, q.at, key.resolution)
		}()
	}
	return a
}

func keyOf(c *Client, q instant) aheadKey {
	return aheadKey{expr: q.expr, resolution: c.MaxSourceResolution(), at: q.at.UnixMilli()}
}

// take removes and returns the answer to q, nil when q was not sent ahead.
func (a *ahead) take(c *Client, q instant) *answer {
	if a == nil {
		return nil
	}
	k := keyOf(c, q)
	an := a.answers[k]
	delete(a.answers, k)
	return an
}

// drop cancels the queries not taken: nothing will read their answers.
func (a *ahead) drop() {
	if a == nil {
		return
	}
	a.answers = nil
	a.cancel()
}

// wait returns the answer, or ctx's error when ctx ends first.
func (an *answer) wait(ctx context.Context) (*Response, error) {
	select {
	case <-an.done:
		return an.resp, an.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
