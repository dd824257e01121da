package snapshot

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// rawHeader is one 512-byte ustar header block, checksum and all: archive/tar writes no
// sparse files, so the hostile archives are put together by hand.
func rawHeader(name string, typ byte, size int64) []byte {
	return rawHeaderMagic(name, typ, size, "ustar\x0000")
}

// rawHeaderMagic is rawHeader with the format's magic and version: "ustar  \x00" is GNU's.
func rawHeaderMagic(name string, typ byte, size int64, magic string) []byte {
	b := make([]byte, 512)
	copy(b[0:100], name)
	copy(b[100:108], "0000600\x00")
	copy(b[108:116], "0000000\x00")
	copy(b[116:124], "0000000\x00")
	copy(b[124:136], fmt.Sprintf("%011o\x00", size))
	copy(b[136:148], "00000000000\x00")
	b[156] = typ
	copy(b[257:265], magic)
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return b
}

// paxRecord is one "LEN key=value\n" record; LEN counts itself.
func paxRecord(k, v string) string {
	body := " " + k + "=" + v + "\n"
	n := len(body) + 1
	for len(fmt.Sprint(n))+len(body) != n {
		n++
	}
	return fmt.Sprint(n) + body
}

// padded pads b to whole 512-byte blocks.
func padded(b []byte) []byte {
	if r := len(b) % 512; r != 0 {
		b = append(b, make([]byte, 512-r)...)
	}
	return b
}

// sparseArchive is a snapshot whose pages are PAX GNU.sparse members (format 0.1): no bytes
// on the wire, realSize zero bytes each when read.
func sparseArchive(t testing.TB, members int, realSize int64) []byte {
	t.Helper()
	var tb bytes.Buffer
	m := manifestEntry(t, SchemaVersion)
	tb.Write(rawHeader(m.name, '0', int64(len(m.data))))
	tb.Write(padded(append([]byte{}, m.data...)))
	for i := 0; i < members; i++ {
		name := pageName(i, 0)
		recs := paxRecord("GNU.sparse.major", "0") + paxRecord("GNU.sparse.minor", "1") +
			paxRecord("GNU.sparse.name", name) + paxRecord("GNU.sparse.realsize", fmt.Sprint(realSize)) +
			paxRecord("GNU.sparse.numblocks", "0") + paxRecord("GNU.sparse.map", "")
		tb.Write(rawHeader("PaxHeaders/"+name, 'x', int64(len(recs))))
		tb.Write(padded([]byte(recs)))
		tb.Write(rawHeader(name, '0', 0))
	}
	tb.Write(make([]byte, 1024))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(tb.Bytes())
	zw.Close()
	return buf.Bytes()
}

// A few kilobytes of sparse members that would read as a gigabyte of zeros are refused at the
// first of them, naming it, before anything is allocated for it.
func TestSparseMembersAreRefused(t *testing.T) {
	file := sparseArchive(t, 24, 64<<20)
	if len(file) > 32<<10 {
		t.Fatalf("the archive is %d bytes; it should be small", len(file))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(file), DefaultLimits())
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "sparse") || !strings.Contains(err.Error(), pageName(0, 0)) {
		t.Fatalf("error %v, want one refusing the sparse member %s", err, pageName(0, 0))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("reading the refused archive allocated %d bytes, want a few", alloc)
	}
}

// The old GNU sparse type is refused by its type, like every type but a regular file.
func TestOldGNUSparseTypeIsRefused(t *testing.T) {
	var tb bytes.Buffer
	m := manifestEntry(t, SchemaVersion)
	tb.Write(rawHeader(m.name, '0', int64(len(m.data))))
	tb.Write(padded(append([]byte{}, m.data...)))
	tb.Write(rawHeaderMagic("pages/000-0.prom", 'S', 0, "ustar  \x00"))
	tb.Write(make([]byte, 1024))
	_, err := Read(bytes.NewReader(gz(t, tb.Bytes())), DefaultLimits())
	if err == nil || !strings.Contains(err.Error(), `"pages/000-0.prom" is a sparse file (tar type 'S')`) {
		t.Fatalf("error %v, want the sparse type refused", err)
	}
}
