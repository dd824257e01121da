package controller

import (
	"encoding/binary"
	"hash/fnv"
	"math"
)

// shouldFail decides deterministically whether one reconcile attempt fails: the same seed,
// object, generation and attempt always give the same answer, so tests and scenarios are
// reproducible, while the share of failures over many attempts approaches rate.
func shouldFail(rate float64, seed int64, key string, generation int64, attempt int) bool {
	switch {
	case rate <= 0:
		return false
	case rate >= 1:
		return true
	}
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(seed))
	h.Write(buf[:])
	h.Write([]byte(key))
	binary.LittleEndian.PutUint64(buf[:], uint64(generation))
	h.Write(buf[:])
	binary.LittleEndian.PutUint64(buf[:], uint64(attempt))
	h.Write(buf[:])
	return float64(h.Sum64())/math.MaxUint64 < rate
}
