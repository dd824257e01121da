package printable

import (
	"testing"
	"time"
)

type level string

type inner struct {
	Name  string
	Level level
}

type outer struct {
	Title   string
	Items   []inner
	Ptr     *inner
	ByName  map[string]*float64
	Any     any
	Array   [2]string
	Raw     []byte
	When    time.Time
	Count   int
	private string
}

func TestValueEscapesEveryStringOfACopy(t *testing.T) {
	one := 1.0
	at := time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)
	in := outer{Title: "t\x1b[2J", Items: []inner{{Name: "q\n::error x", Level: "w\x07"}}, Ptr: &inner{Name: "p\u202e"},
		ByName: map[string]*float64{"k\x1b": &one}, Any: "a\r", Array: [2]string{"x\t", "y"}, Raw: []byte("\x1b"),
		When: at, Count: 3, private: "\x1b"}
	got := Value(in)
	if got.Title != `t\x1b[2J` || got.Items[0].Name != `q\n::error x` || got.Items[0].Level != `w\x07` ||
		got.Ptr.Name != `p\u202e` || got.ByName[`k\x1b`] == nil || *got.ByName[`k\x1b`] != 1 || got.Any != `a\r` ||
		got.Array != [2]string{`x\t`, "y"} || string(got.Raw) != "\x1b" || !got.When.Equal(at) || got.Count != 3 {
		t.Errorf("Value = %+v", got)
	}
	if in.Title != "t\x1b[2J" || in.Items[0].Name != "q\n::error x" || in.Ptr.Name != "p\u202e" {
		t.Errorf("the original changed: %+v", in)
	}
	if p := Value(&in); p == &in || p.Title != `t\x1b[2J` || in.Title != "t\x1b[2J" {
		t.Errorf("Value of a pointer = %+v", p)
	}
	var nilPtr *outer
	if Value(nilPtr) != nil {
		t.Error("Value(nil) is not nil")
	}
}

func TestValueOfPlainDataCostsNothing(t *testing.T) {
	one := 1.0
	item := outer{Title: "plain", Items: []inner{{Name: "q", Level: "ok"}}, ByName: map[string]*float64{"0": &one}, Any: "a"}
	few, many := []outer{item}, make([]outer, 100)
	for i := range many {
		many[i] = item
	}
	// A look allocates a key for each map it looks into, not a copy of what it looks at.
	if a, b := testing.AllocsPerRun(20, func() { _ = Value(few) }), testing.AllocsPerRun(20, func() { _ = Value(many) }); a > 4 || b > float64(len(many))+4 {
		t.Errorf("%v and %v allocations for data with nothing to escape", a, b)
	}
	if got := Value(many); &got[0] != &many[0] {
		t.Error("data with nothing to escape was copied")
	}
}
