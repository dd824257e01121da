package findings

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// checkThreshold refuses a threshold value no rule can be judged against: a duration of 0 or
// less, a negative count or rate, NaN, and a ratio (a name ending in Ratio) outside 0 to 1. The
// error says what is allowed; the callers name the threshold and its value.
func checkThreshold(name string, v reflect.Value) error {
	switch x := v.Interface().(type) {
	case Duration:
		if x <= 0 {
			return fmt.Errorf("a duration must be more than 0, e.g. %s", example(name, v))
		}
	case float64:
		switch {
		case strings.HasSuffix(name, "Ratio") && !(x >= 0 && x <= 1):
			return errors.New("a ratio must be from 0 to 1, e.g. 0.1 for 10%")
		case math.IsNaN(x) || x < 0:
			return fmt.Errorf("must be 0 or more, e.g. %s", example(name, v))
		}
	}
	return nil
}

// example is the default of the threshold, as typed: "100", "30s", "1h".
func example(name string, v reflect.Value) string {
	def := DefaultThresholds()
	switch x := fieldByJSON(&def, name).Interface().(type) {
	case Duration:
		s := x.String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// Check refuses thresholds no rule can be judged against (see checkThreshold); the error names
// the threshold and its value.
func (t *Thresholds) Check() error {
	rv := reflect.ValueOf(t).Elem()
	for i := 0; i < rv.NumField(); i++ {
		name := strings.Split(rv.Type().Field(i).Tag.Get("json"), ",")[0]
		if err := checkThreshold(name, rv.Field(i)); err != nil {
			return fmt.Errorf("%s %v: %w", name, rv.Field(i).Interface(), err)
		}
	}
	return nil
}
