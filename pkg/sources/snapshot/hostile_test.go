package snapshot

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entry is one member of a hand-built archive: a regular file unless typ says otherwise.
type entry struct {
	name, link string
	typ        byte
	data       []byte
	// size, when set, is the size the header claims.
	size int64
}

func manifestEntry(t testing.TB, version int) entry {
	t.Helper()
	b, err := json.Marshal(Manifest{Kind: Kind, SchemaVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	return entry{name: ManifestName, data: b}
}

// build makes a .tar.gz of the entries in memory.
func build(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		size := int64(len(e.data))
		if typ != tar.TypeReg {
			size = 0
		}
		hdr := &tar.Header{Typeflag: typ, Name: e.name, Linkname: e.link, Mode: 0o600, Size: size}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// oversized claims a member larger than the limit in its header, with no data behind it.
func oversized(t testing.TB, claim int64) []byte {
	t.Helper()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: ManifestName, Mode: 0o600, Size: claim}); err != nil {
		t.Fatal(err)
	}
	// Not closed: the header alone is enough for the reader to refuse.
	tw.Flush()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(tb.Bytes())
	zw.Close()
	return buf.Bytes()
}

// Every hostile file is refused with one error that says why, within the limits, and
// reading writes nothing to disk.
func TestHostileSnapshotsAreRefused(t *testing.T) {
	lim := Limits{MemberBytes: 1 << 20, TotalBytes: 4 << 20, Members: 100}
	good := build(t, manifestEntry(t, SchemaVersion), entry{name: inventoryName, data: []byte("{}")}, entry{name: resultsName, data: []byte("[]")})
	zeros := make([]byte, 900<<10) // under the member limit, each
	bomb := []entry{manifestEntry(t, SchemaVersion)}
	for i := 0; i < 8; i++ {
		bomb = append(bomb, entry{name: pageName(i, 0), data: zeros})
	}
	bombBytes := build(t, bomb...)
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"not an archive", []byte("# TYPE workqueue_depth gauge\nworkqueue_depth 1\n"), "not gzip-compressed"},
		{"empty file", nil, "not gzip-compressed"},
		{"gzip but not tar", gz(t, []byte(strings.Repeat("hello ", 200))), "corrupt"},
		{"path traversal", build(t, manifestEntry(t, 1), entry{name: "../../etc/cron.d/x", data: []byte("x")}), "leaves the archive"},
		{"traversal inside", build(t, manifestEntry(t, 1), entry{name: "pages/../../x", data: []byte("x")}), "leaves the archive"},
		{"absolute path", build(t, manifestEntry(t, 1), entry{name: "/etc/passwd", data: []byte("x")}), "absolute"},
		{"windows path", build(t, manifestEntry(t, 1), entry{name: `C:\x`, data: []byte("x")}), "absolute"},
		{"symlink", build(t, manifestEntry(t, 1), entry{name: "pages/000-0.prom", typ: tar.TypeSymlink, link: "/etc/shadow"}), "is a link"},
		{"hard link", build(t, manifestEntry(t, 1), entry{name: "pages/000-0.prom", typ: tar.TypeLink, link: ManifestName}), "is a link"},
		{"directory", build(t, manifestEntry(t, 1), entry{name: "pages/", typ: tar.TypeDir}), "not a regular file"},
		{"member over the limit", oversized(t, 2<<20), "over the limit"},
		{"gzip bomb", bombBytes, "decompresses to more than"},
		{"truncated", good[:len(good)/2], "truncated"},
		{"newer schema", build(t, manifestEntry(t, SchemaVersion+1), entry{name: inventoryName, data: []byte("{}")}), "newer than"},
		{"manifest not first", build(t, entry{name: inventoryName, data: []byte("{}")}, manifestEntry(t, 1)), "first member"},
		{"not our manifest", build(t, entry{name: ManifestName, data: []byte(`{"kind":"Other","schemaVersion":1}`)}), "kind"},
		{"a member twice", build(t, manifestEntry(t, 1), entry{name: inventoryName, data: []byte("{}")}, entry{name: inventoryName, data: []byte("{}")}), "twice"},
		{"missing page", build(t, manifestEntry(t, 1), entry{name: inventoryName, data: []byte("{}")},
			entry{name: resultsName, data: []byte(`[{"target":{"kind":"url","name":"u"},"samples":[{"page":"pages/000-0.prom"}]}]`)}), "does not hold"},
	}
	if len(bombBytes) > 64<<10 {
		t.Fatalf("the gzip bomb is %d bytes compressed; it should be small", len(bombBytes))
	}
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.file), lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := Read(bytes.NewReader(good), lim); err != nil {
		t.Errorf("the well-formed archive was refused: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) > 0 {
		t.Errorf("reading wrote %v", left)
	}
}

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// A directory or a device given as the snapshot is refused before it is read.
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	if _, err := Load(context.Background(), t.TempDir(), DefaultLimits()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("error %v, want not a regular file", err)
	}
	if _, err := Load(context.Background(), filepath.Join(t.TempDir(), "missing.tar.gz"), DefaultLimits()); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("error %v, want cannot read", err)
	}
}
