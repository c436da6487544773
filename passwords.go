package workforce

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
)

// Password hiding: a UserCreate or UserUpdate prints, logs and marshals
// without its passwords; only the request body the client sends carries
// them (wire), and the call's errors and log lines redact them should the
// server echo them back.

// userWire encodes a user write with every field, passwords included: it
// has none of UserCreate's methods. Only the request body uses it.
type userWire UserCreate

// MarshalJSON encodes the fields that are set, leaving the passwords out:
// the client sends them, but a caller marshalling u for a log does not.
func (u UserCreate) MarshalJSON() ([]byte, error) { return json.Marshal(userWire(u).public()) }

// MarshalJSON encodes the fields that are set, leaving the passwords out,
// as UserCreate's does.
func (u UserUpdate) MarshalJSON() ([]byte, error) { return json.Marshal(userWire(u).public()) }

// Format prints the fields that are set, the passwords as [REDACTED],
// whatever the verb.
func (u UserCreate) Format(f fmt.State, _ rune) { userWire(u).format(f, "workforce.UserCreate") }

// Format prints the fields that are set, the passwords as [REDACTED],
// whatever the verb.
func (u UserUpdate) Format(f fmt.State, _ rune) { userWire(u).format(f, "workforce.UserUpdate") }

// LogValue logs the fields that are set, the passwords as [REDACTED].
func (u UserCreate) LogValue() slog.Value { return slog.GroupValue(userWire(u).attrs()...) }

// LogValue logs the fields that are set, the passwords as [REDACTED].
func (u UserUpdate) LogValue() slog.Value { return slog.GroupValue(userWire(u).attrs()...) }

// wire returns the body a create sends, passwords included, and the
// passwords, which no error or log line may show should the server echo
// them.
func (u *UserCreate) wire() (any, []string) { return userWire(*u), userWire(*u).passwords() }

// wire returns the body an update sends, passwords included, and the
// passwords, as UserCreate's does.
func (u *UserUpdate) wire() (any, []string) { return userWire(*u), userWire(*u).passwords() }

// passwords returns the passwords u holds.
func (u userWire) passwords() []string {
	var out []string
	for _, p := range []string{u.Password, u.PasswordConfirmation} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// public returns u without its passwords.
func (u userWire) public() userWire {
	u.Password, u.PasswordConfirmation = "", ""
	return u
}

// attrs lists the fields of u that are set, by Go name, pointers followed
// and every password field replaced by [REDACTED]. It reads the fields by
// reflection, so that a field added later is neither forgotten nor, if its
// JSON name holds "password", shown.
func (u userWire) attrs() []slog.Attr {
	v := reflect.ValueOf(u)
	var attrs []slog.Attr
	for i := range v.NumField() {
		field, value := v.Type().Field(i), v.Field(i)
		switch {
		case value.IsZero():
			continue
		case strings.Contains(field.Tag.Get("json"), "password"):
			attrs = append(attrs, slog.String(field.Name, "[REDACTED]"))
		case value.Kind() == reflect.Pointer:
			attrs = append(attrs, slog.Any(field.Name, value.Elem().Interface()))
		default:
			attrs = append(attrs, slog.Any(field.Name, value.Interface()))
		}
	}
	return attrs
}

// format prints u as name{Field:value ...}, from attrs.
func (u userWire) format(f fmt.State, name string) {
	fmt.Fprint(f, name+"{")
	for i, a := range u.attrs() {
		if i > 0 {
			fmt.Fprint(f, " ")
		}
		fmt.Fprintf(f, "%s:%+v", a.Key, a.Value.Any())
	}
	fmt.Fprint(f, "}")
}
