package controller

import (
	"fmt"
	"testing"
)

func TestShouldFailDeterministicAndProportional(t *testing.T) {
	if shouldFail(0, 1, "a", 1, 0) || !shouldFail(1, 1, "a", 1, 0) {
		t.Fatal("rates 0 and 1 must never and always fail")
	}
	fails := 0
	for i := 0; i < 10000; i++ {
		key := fmt.Sprintf("ns/w%d", i)
		a := shouldFail(0.3, 7, key, 2, i%5)
		if b := shouldFail(0.3, 7, key, 2, i%5); a != b {
			t.Fatalf("%s: not deterministic", key)
		}
		if a {
			fails++
		}
	}
	if fails < 2800 || fails > 3200 {
		t.Errorf("rate 0.3 failed %d of 10000, want about 3000", fails)
	}
}
