// Package pagegen generates synthetic kube-apiserver-like metrics pages of a chosen size, for
// benchmarks and memory measurements (a 30 MB page is generated when needed, never committed).
//
// It grows a real captured page the way a real API server's page grows in a big cluster: every
// series labelled with a resource is repeated for more resource types (as CRDs add them), while
// series without a resource label (the API server's own workqueues, process metrics) stay as
// they are.
package pagegen

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

var resourceLabel = []byte(`resource="`)

// Write writes a page of at least size bytes grown from seed, a text exposition page (a
// kube-apiserver page, whose series mostly carry a resource label). It returns the bytes
// written. Series that carry a resource label are repeated with the resource renamed
// ("pods" -> "pods-g1", "pods-g2", ...) until the page reaches size.
func Write(w io.Writer, seed []byte, size int64) (int64, error) {
	var scaled, other int64
	for line := range bytes.Lines(seed) {
		if bytes.Contains(line, resourceLabel) {
			scaled += int64(len(line))
		} else {
			other += int64(len(line))
		}
	}
	if scaled == 0 {
		return 0, fmt.Errorf("the seed page has no series with a resource label to grow")
	}
	copies := max(1, (size-other+scaled-1)/scaled)
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := &countingWriter{w: bw}
	var block [][]byte // the sample lines of the current family
	flush := func() {
		for k := int64(0); k < copies; k++ {
			for _, line := range block {
				i := bytes.Index(line, resourceLabel)
				switch {
				case i < 0 && k == 0:
					cw.Write(line)
				case i >= 0:
					end := i + len(resourceLabel) + bytes.IndexByte(line[i+len(resourceLabel):], '"')
					cw.Write(line[:end])
					if k > 0 {
						fmt.Fprintf(cw, "-g%d", k)
					}
					cw.Write(line[end:])
				}
			}
		}
		block = block[:0]
	}
	for line := range bytes.Lines(seed) {
		if len(line) > 0 && line[0] == '#' {
			if len(block) > 0 {
				flush()
			}
			cw.Write(line)
			continue
		}
		block = append(block, line)
	}
	flush()
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, cw.err
}

type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// Page returns a page of at least size bytes grown from the seed page at seedPath (gzipped
// when the name ends in .gz).
func Page(seedPath string, size int64) ([]byte, error) {
	seed, err := ReadSeed(seedPath)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(size + size/8))
	if _, err := Write(&buf, seed, size); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadSeed reads a captured page, gunzipping it when the name ends in .gz.
func ReadSeed(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}
