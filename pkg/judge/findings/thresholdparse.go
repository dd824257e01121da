package findings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
)

// LoadFile overrides t with the thresholds set in a YAML or JSON file (--thresholds): a mapping
// of threshold names to values, e.g. "stuckAfter: 10m". A file that is no such mapping, an
// unknown name, and a value Set would refuse are errors naming the file once.
func (t *Thresholds) LoadFile(path string) error {
	b, err := localfile.ReadSmall(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, below
		}
		return fmt.Errorf("--thresholds %s: %w", path, err)
	}
	values, err := thresholdsFile(b)
	if err != nil {
		return fmt.Errorf("--thresholds %s: %w", path, err)
	}
	names := make([]string, 0, len(values))
	known := 0
	for name := range values {
		names = append(names, name)
		if fieldByJSON(t, name).IsValid() {
			known++
		}
	}
	if known == 0 && len(names) > 0 {
		return fmt.Errorf("--thresholds %s: %w", path, errNotThresholds)
	}
	sort.Strings(names)
	for _, name := range names {
		if !fieldByJSON(t, name).IsValid() {
			return fmt.Errorf("--thresholds %s: %w", path, unknownThreshold(name))
		}
		if err := t.setValue(name, values[name]); err != nil {
			return fmt.Errorf("--thresholds %s: %s %s: %w", path, name, values[name], err)
		}
	}
	return nil
}

// errNotThresholds says what a thresholds file looks like.
var errNotThresholds = errors.New(`not a thresholds file: it holds YAML lines of a threshold name and its value, e.g. "stuckAfter: 10m" or "errorRatio: 0.2"`)

// thresholdsFile reads the file as a mapping of names to the values as text, as typed after
// --threshold name=. An empty file sets nothing.
func thresholdsFile(b []byte) (map[string]string, error) {
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return nil, errNotThresholds
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(j, &raw); err != nil {
		return nil, errNotThresholds
	}
	values := make(map[string]string, len(raw))
	for name, v := range raw {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v) // a number, or a value no threshold takes (refused by setValue)
		}
		values[name] = s
	}
	return values, nil
}

// Set overrides one threshold from "name=value" (json names, e.g. stuckAfter=1m). A value that
// is not of the threshold's kind or out of its range, and an unknown name, are errors saying
// the flag, the value and what is allowed.
func (t *Thresholds) Set(kv string) error {
	name, value, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("--threshold %q: use name=value, e.g. stuckAfter=1m; names: %s", kv, strings.Join(ThresholdNames(), ", "))
	}
	if err := t.setValue(name, value); err != nil {
		return fmt.Errorf("--threshold %s: %w", kv, err)
	}
	return nil
}

// setValue sets the threshold name from its value as typed, or says why it cannot.
func (t *Thresholds) setValue(name, value string) error {
	f := fieldByJSON(t, name)
	if !f.IsValid() {
		return unknownThreshold(name)
	}
	value = strings.TrimSpace(value)
	var v reflect.Value
	switch f.Interface().(type) {
	case Duration:
		d, err := time.ParseDuration(value)
		if err != nil {
			return errors.New("not a duration (use e.g. 30s, 5m)")
		}
		v = reflect.ValueOf(Duration(d))
	case float64:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("not a number (use e.g. %s)", example(name, f))
		}
		v = reflect.ValueOf(x)
	}
	if err := checkThreshold(name, v); err != nil {
		return err
	}
	f.Set(v)
	return nil
}

// unknownThreshold names the threshold meant when the name is close to one, else lists them.
func unknownThreshold(name string) error {
	if meant := nearestName(name); meant != "" {
		return fmt.Errorf("unknown threshold %q (did you mean %s?)", name, meant)
	}
	return fmt.Errorf("unknown threshold %q; names: %s", name, strings.Join(ThresholdNames(), ", "))
}
