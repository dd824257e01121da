package goroutines

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// answer is a transport that answers every GET with one status and body, or an error.
type answer struct {
	code int
	body string
	err  error
	path string
}

func (a *answer) Get(ctx context.Context, t target.Target, _ http.Header) (*http.Response, error) {
	a.path = t.Path
	if a.err != nil {
		return nil, a.err
	}
	return &http.Response{StatusCode: a.code, Body: io.NopCloser(strings.NewReader(a.body)), Header: http.Header{}}, nil
}

func TestFetchGroupsTheWorkersOrSaysWhyNot(t *testing.T) {
	dump, err := os.ReadFile("../goroutines/testdata/operator.txt")
	if err != nil {
		t.Fatal(err)
	}
	ep := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Port: 8082, Path: GoroutinePath, Via: target.ViaProxy}
	b := Bounds{Timeout: time.Second, MaxBytes: 1 << 20}

	tr := &answer{code: 200, body: string(dump)}
	p := Fetch(context.Background(), tr, ep, b, "")
	if tr.path != "/debug/pprof/goroutine?debug=2" || p.Endpoint != "ns/p:8082/debug/pprof/goroutine" || len(p.Groups) != 2 || p.Note != "" {
		t.Errorf("200: asked %s, %+v", tr.path, p)
	}
	p = Fetch(context.Background(), &answer{code: 200, body: string(dump)}, ep, Bounds{Timeout: time.Second, MaxBytes: int64(len(dump) / 2)}, "")
	if len(p.Groups) == 0 || !strings.Contains(p.Note, "cut") {
		t.Errorf("cut: %+v", p)
	}
	for code, want := range map[int]string{403: "proxy never forwards", 404: "does not serve net/http/pprof", 401: "credentials"} {
		p = Fetch(context.Background(), &answer{code: code, body: "no"}, ep, b, "")
		if len(p.Groups) != 0 || !strings.Contains(p.Note, want) {
			t.Errorf("%d: %q", code, p.Note)
		}
	}
	p = Fetch(context.Background(), &answer{err: errors.New("dial: token s3cret refused")}, ep, b, "s3cret")
	if strings.Contains(p.Note, "s3cret") || !strings.HasPrefix(p.Note, "not read: ") {
		t.Errorf("error: %q", p.Note)
	}
	p = Fetch(context.Background(), &answer{code: 200, body: "<html>\x1b[2Jlogin</html>"}, ep, b, "")
	if p.Note != "the answer is not a goroutine dump" {
		t.Errorf("html: %q", p.Note)
	}
}

func TestARefusalSaysWhetherTheTokenWasSent(t *testing.T) {
	ep := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Port: 8082, Scheme: "http", Path: GoroutinePath, Via: target.ViaPortForward}
	b := Bounds{Timeout: time.Second, MaxBytes: 1 << 20}
	p := Fetch(context.Background(), &answer{code: 401, body: "no"}, ep, b, "")
	if !strings.Contains(p.Note, "none were sent") || strings.Contains(p.Note, "the token may not") {
		t.Errorf("without the token: %q", p.Note)
	}
	p = Fetch(context.Background(), &answer{code: 403, body: "no"}, ep, b, "s3cret")
	if !strings.Contains(p.Note, "the token may not get /debug/pprof/*") {
		t.Errorf("with the token: %q", p.Note)
	}
}
