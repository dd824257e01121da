package snapshot

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
)

// Member is one file of the archive.
type Member struct {
	Name string
	Data []byte
}

// Limits bound what reading an archive may hold in memory.
type Limits struct {
	// MemberBytes bounds one member; TotalBytes all of them, decompressed; Members their count.
	MemberBytes int64
	TotalBytes  int64
	Members     int
}

// DefaultLimits allow the largest page --max-body-bytes accepts by default (64 MiB) per member.
func DefaultLimits() Limits {
	return Limits{MemberBytes: 64 << 20, TotalBytes: 1 << 30, Members: 10000}
}

// writeArchive writes the members, in order, as a gzip-compressed tar archive of regular files.
func writeArchive(w io.Writer, members []Member, mtime time.Time) error {
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: m.Name, Mode: 0o600, Size: int64(len(m.Data)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(m.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// readArchive reads every member into memory within lim, refusing anything but regular files
// with clean relative names. Nothing is written anywhere.
func readArchive(r io.Reader, lim Limits) ([]Member, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, archiveError(nil, err)
	}
	if err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return nil, errors.New("not a snapshot: the file is not gzip-compressed (a snapshot is the .tar.gz `kubectl ctrldiag snapshot -f` writes)")
	}
	zr, err := gzip.NewReader(br)
	if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
		return nil, wait
	}
	if err != nil {
		return nil, fmt.Errorf("not a snapshot: %v", err)
	}
	// The whole decompressed stream is bounded, tar headers and padding included: a gzip
	// bomb stops here, however its members claim to be sized.
	total := &countingReader{r: zr, left: lim.TotalBytes}
	tr := tar.NewReader(total)
	var out []Member
	var read int64 // bytes of members read, against lim.TotalBytes
	seen := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, archiveError(total, err)
		}
		if err := checkHeader(hdr, lim); err != nil {
			return nil, err
		}
		if seen[hdr.Name] {
			return nil, fmt.Errorf("refused: the archive holds %q twice", hdr.Name)
		}
		seen[hdr.Name] = true
		if len(out) >= lim.Members {
			return nil, fmt.Errorf("refused: the archive holds more than %d members", lim.Members)
		}
		// What a member gives is counted, not what its header claims on the wire: the two
		// differ for formats that expand on reading, refused above, and must never differ
		// unnoticed.
		if hdr.Size > lim.TotalBytes-read {
			return nil, fmt.Errorf("refused: the archive decompresses to more than %d bytes (a gzip bomb, or a snapshot larger than this reader allows)", lim.TotalBytes)
		}
		data, err := readMember(tr, hdr)
		if err != nil {
			return nil, archiveError(total, err)
		}
		read += int64(len(data))
		out = append(out, Member{Name: hdr.Name, Data: data})
	}
	if len(out) == 0 {
		return nil, errors.New("not a snapshot: the archive is empty")
	}
	return out, nil
}

// readMember reads the member the reader is at: exactly the size its header gives, and not
// a byte more.
func readMember(tr *tar.Reader, hdr *tar.Header) ([]byte, error) {
	data := make([]byte, hdr.Size)
	if _, err := io.ReadFull(tr, data); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, _ := tr.Read(one[:]); n > 0 {
		return nil, fmt.Errorf("member %q holds more than the %d bytes its header gives", hdr.Name, hdr.Size)
	}
	return data, nil
}

// checkHeader refuses what a snapshot never holds: links, devices, directories, sparse
// files, names that are absolute or leave the archive, and members larger than the limit.
func checkHeader(hdr *tar.Header, lim Limits) error {
	name := hdr.Name
	switch hdr.Typeflag {
	case tar.TypeReg:
	case tar.TypeSymlink, tar.TypeLink:
		return fmt.Errorf("refused: %q is a link (to %q); a snapshot holds regular files only", name, hdr.Linkname)
	case tar.TypeGNUSparse:
		return fmt.Errorf("refused: %q is a sparse file (tar type %q); a snapshot holds regular files only", name, hdr.Typeflag)
	default:
		return fmt.Errorf("refused: %q is not a regular file (tar type %q); a snapshot holds regular files only", name, hdr.Typeflag)
	}
	for k := range hdr.PAXRecords {
		// A sparse file is a few bytes on the wire that read as many: its header's size is
		// not what it gives.
		if strings.HasPrefix(k, "GNU.sparse.") {
			return fmt.Errorf("refused: %q is a sparse file (tar GNU.sparse records); a snapshot holds regular files only", name)
		}
	}
	switch {
	case name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) || (len(name) > 1 && name[1] == ':'):
		return fmt.Errorf("refused: member name %q is absolute or not a plain relative path", name)
	case path.Clean(name) != name || name == ".." || strings.HasPrefix(name, "../") || strings.Contains(name, "/../"):
		return fmt.Errorf("refused: member name %q leaves the archive or is not clean", name)
	case hdr.Size < 0 || hdr.Size > lim.MemberBytes:
		return fmt.Errorf("refused: member %q is %d bytes, over the limit of %d (raise --max-body-bytes if the pages really are that large)", name, hdr.Size, lim.MemberBytes)
	}
	return nil
}

// archiveError names what went wrong with the stream: the total limit, or a truncated or
// corrupt archive.
func archiveError(c *countingReader, err error) error {
	var wait *localfile.WaitError
	switch {
	case errors.As(err, &wait):
		return wait // a FIFO or pipe that gave nothing in time: not the archive's fault
	case c == nil:
		return fmt.Errorf("cannot read the snapshot: %v", err)
	}
	if c.over {
		return fmt.Errorf("refused: the archive decompresses to more than %d bytes (a gzip bomb, or a snapshot larger than this reader allows)", c.limit())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("the snapshot is truncated: the archive ends in the middle of a member (copy the whole file again)")
	}
	return fmt.Errorf("the snapshot is corrupt: %v", err)
}

// countingReader fails once more than its budget was read.
type countingReader struct {
	r    io.Reader
	left int64
	read int64
	over bool
}

func (c *countingReader) limit() int64 { return c.read + c.left }

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.r.Read(one[:]); n > 0 {
			c.over = true
			return 0, errors.New("archive size limit reached")
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	c.read += int64(n)
	return n, err
}
