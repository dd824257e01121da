package snapshot

import (
	"context"
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// stopped is the error of a stored result left unparsed because ctx ended: the run's overall
// deadline, in the words a live reading uses, or what else ended it.
func stopped(ctx context.Context) error {
	if err := source.Late(ctx, "before this target's stored pages were parsed", "", "or name fewer targets"); err != nil {
		return err
	}
	return fmt.Errorf("not replayed: %w", context.Cause(ctx))
}
