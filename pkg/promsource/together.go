package promsource

import (
	"context"
	"sync"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promapi"
)

// instant is one instant query: an expression evaluated at a time.
type instant struct {
	expr string
	at   time.Time
}

// queryTogether sends instant queries whose answers do not depend on each other all at once:
// the server evaluates one while the answer of another is read, where one after the other
// the reading would wait for each evaluation. The answers come in the order asked; the error
// is that of the first query, in that order, that failed (each is sent whatever the others
// answer: the number of queries a run costs does not depend on the order they finish in).
func queryTogether(ctx context.Context, c *promapi.Client, qs ...instant) ([]*promapi.Response, error) {
	out := make([]*promapi.Response, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
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
