package live

import (
	"context"
	"io"
)

// Screen is the full-screen view.
func Screen(ctx context.Context, in io.Reader, out io.Writer, next Next, loop Loop) error {
	return Stream(ctx, out, out, next, loop)
}
