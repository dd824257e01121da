package promserver

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ThanosHistory is history as a fleet keeps it: blocks in an object store bucket (a
// filesystem bucket here), compacted and downsampled by thanos compact, read by thanos store
// and queried through thanos query.
type ThanosHistory struct {
	// Query is the URL of the Thanos Query over the store.
	Query string
	// Resolutions are the resolutions (in milliseconds: 0 raw, 300000 5m, 3600000 1h) of the
	// blocks left in the bucket after compaction, as their meta.json say.
	Resolutions []int64
}

// ThanosDownsampled writes the samples of openMetrics (the OpenMetrics text format, "# EOF"
// last, old timestamps) as blocks with promtool (tsdb create-blocks-from openmetrics), gives
// them the external labels labels (meta.json's thanos section, as a sidecar uploads them),
// puts them in a filesystem bucket and runs thanos compact over it once (--no-wait):
// blocks spanning 40 h or more are downsampled to 5 m, 10 days or more to 1 h (only ranges
// of two days, or 14, that later samples close are compacted into such blocks: history
// should go on a few days past the instants queried). With
// dropRaw, raw data older than two days is deleted (--retention.resolution-raw=2d; Thanos
// allows no less), as a fleet keeping raw data short does. It then runs thanos store over the
// bucket and thanos query over the store, until the test ends.
func ThanosDownsampled(t *testing.T, thanos, promtool, openMetrics string, labels map[string]string, dropRaw bool) *ThanosHistory {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "backfill.om")
	if err := os.WriteFile(in, []byte(openMetrics), 0o600); err != nil {
		t.Fatal(err)
	}
	blocks, bucket := filepath.Join(dir, "blocks"), filepath.Join(dir, "bucket")
	if err := Backfill(promtool, in, blocks); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bucket, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(blocks)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "wal" || e.Name() == "chunks_head" {
			continue
		}
		if err := labelBlock(filepath.Join(blocks, e.Name()), labels); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(blocks, e.Name()), filepath.Join(bucket, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	objstore := fmt.Sprintf("type: FILESYSTEM\nconfig: {directory: %q}\n", bucket)
	args := []string{"compact", "--no-wait", "--data-dir=" + filepath.Join(dir, "compact"), "--objstore.config=" + objstore,
		"--consistency-delay=0s", "--delete-delay=0s", "--http-address=" + freeAddr(t), "--log.level=warn"}
	if dropRaw {
		args = append(args, "--retention.resolution-raw=2d")
	}
	if out, err := exec.Command(thanos, args...).CombinedOutput(); err != nil {
		t.Fatalf("thanos compact: %v\n%s", err, out)
	}
	// The blocks compacted, downsampled or past retention are only marked for deletion: a
	// store would still read them until they are deleted, which cleanup does at once.
	if out, err := exec.Command(thanos, "tools", "bucket", "cleanup", "--objstore.config="+objstore, "--delete-delay=0s",
		"--consistency-delay=0s", "--log.level=warn").CombinedOutput(); err != nil {
		t.Fatalf("thanos tools bucket cleanup: %v\n%s", err, out)
	}
	res, err := resolutions(bucket)
	if err != nil {
		t.Fatal(err)
	}
	grpc, addr := freeAddr(t), freeAddr(t)
	start(t, "thanos store", "http://"+addr+"/-/ready", thanos, "store", "--data-dir="+filepath.Join(dir, "store"),
		"--objstore.config="+objstore, "--grpc-address="+grpc, "--http-address="+addr, "--log.level=warn")
	return &ThanosHistory{Query: ThanosQuery(t, thanos, []string{grpc}), Resolutions: res}
}

// labelBlock gives the block in dir the external labels labels, at raw resolution, in its
// meta.json's thanos section.
func labelBlock(dir string, labels map[string]string) error {
	path := filepath.Join(dir, "meta.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var meta map[string]any
	if err := json.Unmarshal(b, &meta); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	meta["thanos"] = map[string]any{"labels": labels, "downsample": map[string]any{"resolution": 0}, "source": "sidecar"}
	if b, err = json.Marshal(meta); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// resolutions are the resolutions of the blocks in bucket, one entry per block (deleted
// blocks, marked for deletion, left out).
func resolutions(bucket string) ([]int64, error) {
	entries, err := os.ReadDir(bucket)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(bucket, e.Name(), "deletion-mark.json")); err == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(bucket, e.Name(), "meta.json"))
		if err != nil {
			continue
		}
		var meta struct {
			Thanos struct {
				Downsample struct {
					Resolution int64 `json:"resolution"`
				} `json:"downsample"`
			} `json:"thanos"`
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, err
		}
		out = append(out, meta.Thanos.Downsample.Resolution)
	}
	return out, nil
}
