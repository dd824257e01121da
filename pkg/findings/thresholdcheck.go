package findings

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// checkThreshold refuses a threshold value no rule can be judged against: a negative duration, count
// or rate, NaN, and a ratio (a name ending in Ratio) outside 0 to 1. The error names the
// threshold, its value and what is allowed.
func checkThreshold(name string, v reflect.Value) error {
	switch x := v.Interface().(type) {
	case Duration:
		if x < 0 {
			return fmt.Errorf("%s %s: a duration must be 0 or more, e.g. 30s", name, x)
		}
	case float64:
		shown := strconv.FormatFloat(x, 'g', -1, 64)
		switch {
		case strings.HasSuffix(name, "Ratio") && !(x >= 0 && x <= 1):
			return fmt.Errorf("%s %s: a ratio must be from 0 to 1, e.g. 0.1 for 10%%", name, shown)
		case math.IsNaN(x) || x < 0:
			return fmt.Errorf("%s %s: it must be a number, 0 or more", name, shown)
		}
	}
	return nil
}

// Check refuses thresholds no rule can be judged against (see checkThreshold).
func (t *Thresholds) Check() error {
	rv := reflect.ValueOf(t).Elem()
	for i := 0; i < rv.NumField(); i++ {
		name := strings.Split(rv.Type().Field(i).Tag.Get("json"), ",")[0]
		if err := checkThreshold(name, rv.Field(i)); err != nil {
			return err
		}
	}
	return nil
}
