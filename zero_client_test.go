package workforce_test

import (
	"context"
	"errors"
	"iter"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/workforce-marketplace/workforce-go"
)

// Every method of every service of a zero Client answers an error (one
// matching ErrConfig once its arguments pass), and panics in none of them.
func TestZeroClientAnswersErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []*workforce.Client{{}, new(workforce.Client)} {
		v := reflect.ValueOf(c).Elem()
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if !field.IsExported() {
				continue
			}
			svc := v.Field(i).Addr()
			for m := range svc.NumMethod() {
				name := field.Name + "." + svc.Type().Method(m).Name
				method := svc.Method(m)
				args := make([]reflect.Value, method.Type().NumIn())
				for k := range args {
					in := method.Type().In(k)
					switch {
					case in == reflect.TypeFor[context.Context]():
						args[k] = reflect.ValueOf(context.Background())
					case in.Kind() == reflect.Int64:
						args[k] = reflect.ValueOf(int64(1)).Convert(in)
					default:
						args[k] = reflect.Zero(in)
					}
				}
				var err error
				assert.NotPanics(t, func() { err = firstError(method.Call(args)) }, name)
				assert.True(t, errors.Is(err, workforce.ErrConfig) || errors.Is(err, workforce.ErrInvalidArgument), "%s: %v", name, err)
			}
		}
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: "GET", Path: "info"}, nil)
		assert.ErrorIs(t, err, workforce.ErrConfig)
	}
}

// firstError answers the error a method call returned, or the first one
// its sequence yielded.
func firstError(out []reflect.Value) error {
	last := out[len(out)-1]
	if err, ok := last.Interface().(error); ok || last.Type() == reflect.TypeFor[error]() {
		return err
	}
	if seq, ok := last.Interface().(iter.Seq2[*workforce.Job, error]); ok {
		for _, err := range seq {
			return err
		}
	}
	// Any other iterator: range over it by reflection.
	var err error
	if last.Kind() == reflect.Func {
		yield := reflect.MakeFunc(last.Type().In(0), func(args []reflect.Value) []reflect.Value {
			if e, ok := args[1].Interface().(error); ok {
				err = e
			}
			return []reflect.Value{reflect.ValueOf(false)}
		})
		last.Call([]reflect.Value{yield})
	}
	return err
}
