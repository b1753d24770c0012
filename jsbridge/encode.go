package jsbridge

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
)

// encodeJSON is json.Marshal, except that NaN and ±Inf, which JSON cannot
// hold, become {"$num":"NaN"|"Infinity"|"-Infinity"}; the package turns
// them back into numbers (index.js revive). A GCV curve over a grid with a
// tiny λ can hold +Inf, and one such value must not fail the whole call.
func encodeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	var uve *json.UnsupportedValueError
	if err == nil || !errors.As(err, &uve) {
		return b, err
	}
	return json.Marshal(finite(reflect.ValueOf(v)))
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// finite rebuilds v as maps, slices and scalars that encoding/json
// encodes as it would encode v, with non-finite floats replaced.
func finite(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(marshaler) {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil() {
			return nil
		}
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		switch {
		case math.IsNaN(x):
			return map[string]string{"$num": "NaN"}
		case math.IsInf(x, 1):
			return map[string]string{"$num": "Infinity"}
		case math.IsInf(x, -1):
			return map[string]string{"$num": "-Infinity"}
		}
		return x
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return finite(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		fallthrough
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = finite(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, _ := json.Marshal(it.Key().Interface())
			out[strings.Trim(string(k), `"`)] = finite(it.Value())
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		addFields(out, v)
		return out
	}
	return v.Interface()
}

// addFields adds the fields of struct v as encoding/json names them
// (tags, omitempty, "-", embedded structs inlined).
func addFields(out map[string]any, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		fv := v.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv, ft = fv.Elem(), ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(out, fv)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if strings.Contains(opts, "omitempty") && isEmpty(fv) {
			continue
		}
		out[name] = finite(fv)
	}
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
