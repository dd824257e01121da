package localfile

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Small files the user names (tokens, CA bundles, thresholds, ignore files) are read whole:
// at most SmallLimit bytes, within SmallWait when they are FIFOs or pipes (process
// substitution, <(...), gives a pipe).
const (
	SmallLimit = 4 << 20
	SmallWait  = 10 * time.Second
)

// ReadSmall reads the whole small file at path. A file larger than SmallLimit (a device such as /dev/zero, or the wrong file) is refused, and
// a FIFO or pipe that gives nothing for SmallWait fails, rather than hold the command.
func ReadSmall(path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), SmallWait)
	defer cancel()
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, SmallLimit+1))
	if err != nil {
		return nil, err
	}
	if len(b) > SmallLimit {
		return nil, fmt.Errorf("%s is larger than %d bytes, more than such a file holds", path, SmallLimit)
	}
	return b, nil
}
