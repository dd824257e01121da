package scrape

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// DefaultMaxBodyBytes caps a page after decompression; kube-apiserver pages reach 50 MB.
const DefaultMaxBodyBytes = 64 << 20

// TooLargeError is returned by a capped body that exceeds its limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the page is larger than %d bytes (--max-body-bytes); raise --max-body-bytes if the target really exposes that much", e.Limit)
}

// capped returns rc limited to limit bytes after decompression: reading past the limit fails
// with a TooLargeError instead of silently truncating the page. A body that starts with the
// gzip magic bytes is decompressed (servers that honour Accept-Encoding, saved .gz pages).
func capped(rc io.ReadCloser, limit int64) (io.ReadCloser, error) {
	br := bufio.NewReader(rc)
	var r io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("the body looks gzip-compressed but is not valid gzip: %v", err)
		}
		r = zr
	}
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	return &limitedBody{r: r, c: rc, left: limit, limit: limit}, nil
}

type limitedBody struct {
	r     io.Reader
	c     io.Closer
	left  int64
	limit int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// At the limit: one more byte means the page is too large, EOF means it fit exactly.
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			return 0, &TooLargeError{Limit: l.limit}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.c.Close() }

// explainingBody passes read errors (a broken connection, the timeout) through explain, so
// that they say what happened; a TooLargeError and EOF pass unchanged. It carries the answer's
// Content-Type for the parser's errors.
type explainingBody struct {
	io.ReadCloser
	explain     func(error) error
	contentType string
}

// ContentType is the Content-Type header of the answer (parse.ContentTyper).
func (b *explainingBody) ContentType() string { return b.contentType }

func (b *explainingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			err = b.explain(err)
		}
	}
	return n, err
}

// notMetrics is the error for a 200 answer whose Content-Type says it is no metrics page (an
// HTML login page, a JSON API): it shows the first bytes of the body too, which say more than
// the type, and closes the body.
func notMetrics(contentType string, body io.ReadCloser) error {
	defer body.Close()
	head, _ := io.ReadAll(io.LimitReader(body, 4096))
	return parse.NewNotTextError(1, head, contentType)
}
