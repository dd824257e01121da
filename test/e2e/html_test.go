//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumArgs are the flags of a headless Chromium that touches nothing but the page: no
// sandbox (tests may run as root), no GPU, no background or update traffic.
var chromiumArgs = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"}

const shotW, shotH = 1280, 2400

// The html report of the real kube-system, opened in a real browser: the page renders (a
// screenshot of the asked size with real content) and the browser's DOM holds the six
// sections and the verdict. CTRLDIAG_HTML_SCREENSHOT=FILE keeps the screenshot (docs/).
func TestReportHTML(t *testing.T) {
	crowd(t)
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is not installed: make test installs it (hack/test-deps.sh); it is needed to check the html report in a real browser: %v", err)
	}
	res := ctrldiag(t, "report", "-n", "kube-system", "-o", "html")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "<!DOCTYPE html>") {
		t.Fatalf("report -o html:\n%s", res)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(res.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	shot := filepath.Join(dir, "report.png")
	start := time.Now()
	runBrowser(t, browser, dir, "--screenshot="+shot, "--window-size=1280,2400", url)
	t.Logf("screenshot in %s", time.Since(start).Round(time.Millisecond))
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if got := img.Bounds().Size(); got.X != shotW || got.Y != shotH {
		t.Errorf("screenshot is %dx%d, want %dx%d", got.X, got.Y, shotW, shotH)
	}
	colours := map[uint32]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if len(colours) <= 20 {
		t.Errorf("the screenshot looks blank: %d distinct colours", len(colours))
	}
	if keep := os.Getenv("CTRLDIAG_HTML_SCREENSHOT"); keep != "" {
		if err := os.WriteFile(keep, b, 0o644); err != nil {
			t.Error(err)
		}
	}

	dom := runBrowser(t, browser, dir, "--dump-dom", url)
	for _, title := range []string{"1. Controller pods", "2. Workqueue depth and backlog trend", "3. Cache sync lag",
		"4. Event processing", "5. Memory and CPU", "6. Objects the controllers reconcile", "7. Findings"} {
		if !strings.Contains(dom, "<h2>"+title+"</h2>") {
			t.Errorf("the rendered page lacks the section %q", title)
		}
	}
	verdict := regexp.MustCompile(`<span class="label">Verdict</span> ([^<]+)</div>`)
	m := verdict.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the rendered page shows no verdict")
	}
	if !regexp.MustCompile(`^(healthy: the controllers keep up|\d+ controllers? in trouble, with (\d+ critical findings? and )?\d+ warnings?|nothing could be read)$`).MatchString(m[1]) ||
		!strings.Contains(res.Stdout, m[1]) {
		t.Errorf("verdict %q is not the report's", m[1])
	}
	if !strings.Contains(dom, `<svg class="`) && !strings.Contains(dom, "no depth to chart") {
		t.Error("the rendered page has neither a depth chart nor says why not")
	}
}

// runBrowser runs headless Chromium with a profile of its own under dir and returns stdout.
func runBrowser(t *testing.T, browser, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	profile, err := os.MkdirTemp(dir, "profile-")
	if err != nil {
		t.Fatal(err)
	}
	all := append(append(append([]string{}, chromiumArgs...), "--user-data-dir="+profile), args...)
	cmd := exec.CommandContext(ctx, browser, all...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || ctx.Err() != nil {
		t.Fatalf("chromium %s: %v (timeout: %v)\n%s", strings.Join(args, " "), err, ctx.Err(), tail(stderr.String(), 20))
	}
	return stdout.String()
}
