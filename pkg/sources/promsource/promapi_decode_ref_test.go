package promsource

import (
	"encoding/json"
	"fmt"
	"io"
)

// The decoder as it was, on encoding/json's tokens: what the lexer's decoder must agree with
// (FuzzDecodeAgrees).

// refDecodeStream reads the outer object token by token into env, and its data.
func refDecodeStream(r io.Reader, want string, maxSeries int, env *envelope) (*Response, error) {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, errNotAPI
	}
	out := &Response{}
	var dataErr error
	for dec.More() {
		key, err := refObjectKey(dec)
		if err != nil {
			return nil, errNotAPI
		}
		if key == "data" {
			if out, dataErr = refDecodeData(dec, want, maxSeries); dataErr != nil {
				// An error answer says why in its status and error, whatever its data.
				return nil, dataErr
			}
			continue
		}
		field := env.field(key)
		if field == nil {
			field = new(json.RawMessage)
		}
		if err := dec.Decode(field); err != nil {
			return nil, errNotAPI
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, errNotAPI
	}
	return out, nil
}

// refDecodeData reads the data object: its resultType and its result, series by series.
func refDecodeData(dec *json.Decoder, want string, maxSeries int) (*Response, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return nil, fmt.Errorf("decoding the answer: its data is not an object")
	}
	out := &Response{}
	resultType := ""
	var pending []rawSeries // read before the resultType said what they are
	for dec.More() {
		key, err := refObjectKey(dec)
		if err != nil {
			return nil, fmt.Errorf("decoding the answer: %w", err)
		}
		switch key {
		case "resultType":
			if err := dec.Decode(&resultType); err != nil {
				return nil, fmt.Errorf("decoding the answer's resultType: %w", err)
			}
			if err := checkType(resultType, want); err != nil {
				return nil, err
			}
		case "result":
			if err := expectDelim(dec, '['); err != nil {
				return nil, fmt.Errorf("decoding the answer: its result is not a list")
			}
			n := 0
			in := newInterner()
			var raw json.RawMessage
			for dec.More() {
				if n++; n > maxSeries {
					return nil, &TooManySeriesError{Series: n, Limit: maxSeries}
				}
				// The series is read whole (its syntax checked), then converted: most often
				// by fastSeries, reading Prometheus' usual shape without reflection.
				if err := dec.Decode(&raw); err != nil {
					return nil, fmt.Errorf("decoding the answer's series %d: %w", n, err)
				}
				if resultType == "" {
					var rs rawSeries
					if err := json.Unmarshal(raw, &rs); err != nil {
						return nil, fmt.Errorf("decoding the answer's series %d: %w", n, err)
					}
					pending = append(pending, rs)
					continue
				}
				s, err := readSeries(raw, resultType, in, n)
				if err != nil {
					return nil, err
				}
				out.Series = append(out.Series, s)
			}
			if err := expectDelim(dec, ']'); err != nil {
				return nil, fmt.Errorf("decoding the answer: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("decoding the answer: %w", err)
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, fmt.Errorf("decoding the answer: %w", err)
	}
	if err := checkType(resultType, want); err != nil {
		return nil, err
	}
	for _, rs := range pending {
		s, err := convert(rs, resultType)
		if err != nil {
			return nil, err
		}
		out.Series = append(out.Series, s)
	}
	return out, nil
}

// refObjectKey reads the next key of an object.
func refObjectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("found %v where a key was expected", tok)
	}
	return key, nil
}
