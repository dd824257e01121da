package run

import (
	"context"
	"errors"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// deadlineWarning says that the run's deadline cut the cluster reads after the targets short;
// "" when it did not.
func deadlineWarning(ctx context.Context) string {
	err := source.Late(ctx, "while the cluster was read after the targets (objects, generations, resource usage, Leases, annotations)",
		"the targets; those sections may be incomplete", "")
	if err == nil {
		return ""
	}
	return err.Error()
}

// nothingRead is the run's error when its deadline passed before any of the targets found
// was read (nil when it did not): the run ends with it, as it ends with a source's, with the
// hint of the targets' own deadline errors.
func nothingRead(ctx context.Context, targets []model.Target) error {
	hint := "or name fewer targets"
	for _, t := range targets {
		var late *source.DeadlineError
		if errors.As(t.Err, &late) && late.Hint != "" {
			hint = late.Hint
			break
		}
	}
	return source.Late(ctx, "before any target was read", printable.Plural(len(targets), "target")+" found, none read", hint)
}
