package collect

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// A snapshot asks for the pages as read: the whole decompressed page, every family included,
// not only those parsed; a normal reading keeps none.
func TestKeepRawKeepsThePageAsRead(t *testing.T) {
	paths := []string{"../../../testdata/pages/kube-controller-manager-1.prom.gz", "../../../testdata/pages/kube-controller-manager-2.prom.gz"}
	keepNone := func(string) bool { return false }
	for _, keepRaw := range []bool{false, true} {
		rs := Collect(context.Background(), []scrape.Source{&scrape.FileSource{Paths: paths}},
			source.Options{Interval: 1, Keep: keepNone, KeepRaw: keepRaw})
		if rs[0].Err != nil || len(rs[0].Samples) != 2 {
			t.Fatalf("keepRaw %v: %d samples, %v", keepRaw, len(rs[0].Samples), rs[0].Err)
		}
		for i, s := range rs[0].Samples {
			if !keepRaw {
				if s.Raw != nil {
					t.Errorf("sample %d kept %d raw bytes without being asked", i, len(s.Raw))
				}
				continue
			}
			if want := gunzip(t, paths[i]); !bytes.Equal(s.Raw, want) {
				t.Errorf("sample %d: raw %d bytes, want the %d bytes of the page", i, len(s.Raw), len(want))
			}
		}
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
