package promserver

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
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
// last, old timestamps) as blocks of 6 hours with promtool (tsdb create-blocks-from
// openmetrics), gives them the external labels labels (meta.json's thanos section, as a
// sidecar uploads them), puts them in a filesystem bucket and runs thanos compact over it
// once (--no-wait): blocks spanning 40 h or more are downsampled to 5 m, 10 days or more to
// 1 h (only ranges of two days, or 14, aligned on multiples of their length since the
// epoch, that later samples close are compacted into such blocks: history should go on
// past the end of the range queried; see FortnightBefore). Data past its retention (keep)
// is deleted, as a fleet keeping raw and 5m data short does. It then runs thanos store over
// the bucket and thanos query over the store, until the test ends.
func ThanosDownsampled(t *testing.T, thanos, promtool, openMetrics string, labels map[string]string, keep Retention) *ThanosHistory {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "backfill.om")
	if err := os.WriteFile(in, []byte(openMetrics), 0o600); err != nil {
		t.Fatal(err)
	}
	blocks, bucket := filepath.Join(dir, "blocks"), filepath.Join(dir, "bucket")
	began := time.Now()
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", "--max-block-duration="+hours(backfillBlock), in, blocks).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
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
	if keep.Raw > 0 {
		args = append(args, "--retention.resolution-raw="+hours(keep.Raw))
	}
	if keep.FiveMinutes > 0 {
		args = append(args, "--retention.resolution-5m="+hours(keep.FiveMinutes))
	}
	backfilled := time.Now()
	if out, err := exec.Command(thanos, args...).CombinedOutput(); err != nil {
		t.Fatalf("thanos compact: %v\n%s", err, out)
	}
	// The blocks compacted, downsampled or past retention are only marked for deletion: a
	// store would still read them until they are deleted, which cleanup does at once.
	if out, err := exec.Command(thanos, "tools", "bucket", "cleanup", "--objstore.config="+objstore, "--delete-delay=0s",
		"--consistency-delay=0s", "--log.level=warn").CombinedOutput(); err != nil {
		t.Fatalf("thanos tools bucket cleanup: %v\n%s", err, out)
	}
	t.Logf("promtool backfilled in %s, thanos compacted and cleaned up in %s", backfilled.Sub(began).Round(100*time.Millisecond),
		time.Since(backfilled).Round(100*time.Millisecond))
	res, err := resolutions(bucket)
	if err != nil {
		t.Fatal(err)
	}
	grpc, addr := freeAddr(t), freeAddr(t)
	start(t, "thanos store", "http://"+addr+"/-/ready", thanos, "store", "--data-dir="+filepath.Join(dir, "store"),
		"--objstore.config="+objstore, "--grpc-address="+grpc, "--http-address="+addr, "--log.level=warn")
	return &ThanosHistory{Query: ThanosQuery(t, thanos, []string{grpc}), Resolutions: res}
}

// backfillBlock is the span of the blocks promtool writes: 6 hours rather than a sidecar's
// 2, a third of the blocks to write and compact (promtool's time goes mostly per block).
// They are aligned as the 2d and 14d ranges of thanos compact are (it leaves them out of its
// 8h ranges, which they straddle).
const backfillBlock = 6 * time.Hour

// fortnight is the longest range thanos compact compacts blocks into (its default levels are
// 2h, 8h, 2d and 14d): only blocks of 14 days span the 10 days it downsamples to 1h from.
const fortnight = 14 * 24 * time.Hour

// FortnightBefore is the end of the last range of 14 days thanos compact compacts blocks
// into (ranges aligned on multiples of 14 days since the epoch) that ends at or before t.
func FortnightBefore(t time.Time) time.Time {
	n := int64(fortnight / time.Second)
	return time.Unix(t.Unix()/n*n, 0).UTC()
}

// Retention is how long thanos compact keeps the data of each resolution, by the end of its
// blocks (--retention.resolution-raw, --retention.resolution-5m; 0 for ever). Thanos allows
// no less than 40 hours of raw data and 10 days of 5m data: the spans it downsamples from.
type Retention struct {
	Raw, FiveMinutes time.Duration
}

// hours is d as thanos' duration flags read it, in whole hours.
func hours(d time.Duration) string { return fmt.Sprintf("%dh", int64(d/time.Hour)) }

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
