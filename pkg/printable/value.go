package printable

import "reflect"

// Value returns a copy of v in which every string (struct fields, elements of slices and
// arrays, map keys and values, what pointers and interfaces hold) went through String. The
// renderers take it of what they print, so that no field, today's or one added later, reaches
// the output raw. Unexported fields are copied as they are; v itself is not changed.
func Value[T any](v T) T {
	in := reflect.ValueOf(&v).Elem()
	out := reflect.New(in.Type()).Elem()
	copyPrintable(out, in)
	return out.Interface().(T)
}

// copyPrintable sets dst (settable, of src's type) to a printable copy of src.
func copyPrintable(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(String(src.String()))
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyPrintable(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		copyPrintable(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		dst.Set(src) // the unexported fields, as they are
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				copyPrintable(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if src.Type().Elem().Kind() == reflect.Uint8 {
			reflect.Copy(s, src) // bytes (a raw JSON message) are data, not text
			dst.Set(s)
			return
		}
		for i := 0; i < src.Len(); i++ {
			copyPrintable(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyPrintable(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(src.Type().Key()).Elem()
			copyPrintable(k, it.Key())
			e := reflect.New(src.Type().Elem()).Elem()
			copyPrintable(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	default:
		dst.Set(src)
	}
}
