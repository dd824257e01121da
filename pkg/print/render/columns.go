package render

import (
	"bufio"
	"io"
	"text/tabwriter"
)

// columns is kubectl's column layout (text/tabwriter, three spaces between columns) over a
// buffer: tabwriter writes every cell and every run of padding separately, which on a
// terminal or a pipe is one system call each, thousands for a table of 200 targets.
type columns struct {
	*tabwriter.Writer
	buf *bufio.Writer
}

func newColumns(w io.Writer) *columns {
	buf := bufio.NewWriterSize(w, 32<<10)
	return &columns{Writer: tabwriter.NewWriter(buf, 6, 4, 3, ' ', 0), buf: buf}
}

// Flush lays out and writes the rows given so far.
func (c *columns) Flush() error {
	if err := c.Writer.Flush(); err != nil {
		return err
	}
	return c.buf.Flush()
}
