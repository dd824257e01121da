package printable

import (
	"reflect"
	"sync"
)

// Value returns v with every string (struct fields, elements of slices and arrays, map keys
// and values, what pointers and interfaces hold) gone through String. The renderers take it of
// what they print, so that no field, today's or one added later, reaches the output raw. v
// itself is never changed: the parts that hold something to escape are copied, the others
// shared, and v is returned as it is when nothing needs escaping (the usual case, at no cost
// but a look). Unexported fields are left as they are.
func Value[T any](v T) T {
	in := reflect.ValueOf(&v).Elem()
	if !needs(in) {
		return v
	}
	out := reflect.New(in.Type()).Elem()
	copyPrintable(out, in)
	return out.Interface().(T)
}

// needs reports whether v holds a string that String changes.
func needs(v reflect.Value) bool {
	if !hasStrings(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.String:
		return firstUnsafe(v.String()) >= 0
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && needs(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && needs(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if needs(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		if v.Len() == 0 {
			return false
		}
		// One key and one element, set in turn: Key and Value would allocate at each entry.
		var it reflect.MapIter
		it.Reset(v)
		var k, e reflect.Value
		if hasStrings(v.Type().Key()) {
			k = reflect.New(v.Type().Key()).Elem()
		}
		if hasStrings(v.Type().Elem()) {
			e = reflect.New(v.Type().Elem()).Elem()
		}
		for it.Next() {
			if k.IsValid() {
				if k.SetIterKey(&it); needs(k) {
					return true
				}
			}
			if e.IsValid() {
				if e.SetIterValue(&it); needs(e) {
					return true
				}
			}
		}
	}
	return false
}

// stringTypes caches hasStrings by type.
var stringTypes sync.Map // reflect.Type -> bool

// hasStrings reports whether a value of type t may hold a string Value would escape: a
// *float64 or a time.Time cannot, and is never walked.
func hasStrings(t reflect.Type) bool {
	if b, ok := stringTypes.Load(t); ok {
		return b.(bool)
	}
	stringTypes.Store(t, false) // a type that refers to itself is decided by its other parts
	b := false
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		b = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		b = hasStrings(t.Elem()) // bytes (a raw JSON message) are data, not text: uint8 has none
	case reflect.Map:
		b = hasStrings(t.Key()) || hasStrings(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField() && !b; i++ {
			b = t.Field(i).IsExported() && hasStrings(t.Field(i).Type)
		}
	}
	stringTypes.Store(t, b)
	return b
}

// copyPrintable sets dst (settable, of src's type) to src with its strings escaped, sharing
// the parts of src that need nothing.
func copyPrintable(dst, src reflect.Value) {
	if !needs(src) {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.String:
		dst.SetString(String(src.String()))
	case reflect.Pointer:
		p := reflect.New(src.Type().Elem())
		copyPrintable(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		e := reflect.New(src.Elem().Type()).Elem()
		copyPrintable(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		dst.Set(src) // the unexported fields, as they are
		for i := 0; i < src.NumField(); i++ {
			if src.Type().Field(i).IsExported() {
				copyPrintable(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyPrintable(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyPrintable(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(src.Type().Key()).Elem()
			copyPrintable(k, it.Key())
			e := reflect.New(src.Type().Elem()).Elem()
			copyPrintable(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	}
}
