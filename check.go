package workforce

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The checks every method runs before any I/O: each refuses one argument
// with an *ArgumentError naming it, and returns nil for a good one.
// Parameters' check methods and the verbs of resource.go are built of
// them; firstError keeps the first refusal of several.

// checkID refuses an ID that is not positive.
func checkID(name string, id int64) error {
	if id <= 0 {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be positive, got %d", id)}
	}
	return nil
}

// checkIDs refuses a list holding an ID that is not positive.
func checkIDs(name string, ids []int64) error {
	for i, id := range ids {
		if err := checkID(fmt.Sprintf("%s[%d]", name, i), id); err != nil {
			return err
		}
	}
	return nil
}

// checkNotNegative refuses a negative number: an optional ID (0 means
// "not set"), a count, a page.
func checkNotNegative[N int | int64](name string, n N) error {
	if n < 0 {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must not be negative, got %d", n)}
	}
	return nil
}

// checkRequired refuses a required text that is empty or blank.
func checkRequired(name, s string) error {
	if strings.TrimSpace(s) == "" {
		return &ArgumentError{Name: name, Reason: "is required"}
	}
	return nil
}

// checkLength refuses a text set (not "") that is longer than most
// characters.
func checkLength(name, s string, most int) error {
	if n := utf8.RuneCountInString(s); n > most {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be 1 to %d characters, got %d", most, n)}
	}
	return nil
}

// checkOneOf refuses a value set (not "") that is none of allowed, the
// values of an enumeration.
func checkOneOf(name, value string, allowed ...string) error {
	if value == "" {
		return nil
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		if a == value {
			return nil
		}
		quoted[i] = strconv.Quote(a)
	}
	last := len(quoted) - 1
	return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be %s or %s, got %q", strings.Join(quoted[:last], ", "), quoted[last], value)}
}

// checkListValues refuses a value of a filter sent as one comma-separated
// parameter that is blank or holds a comma.
func checkListValues(name string, values []string) error {
	for i, v := range values {
		switch {
		case strings.TrimSpace(v) == "":
			return &ArgumentError{Name: fmt.Sprintf("%s[%d]", name, i), Reason: "is empty"}
		case strings.Contains(v, ","):
			return &ArgumentError{Name: fmt.Sprintf("%s[%d]", name, i), Reason: "holds a comma, which the API reads as a separator"}
		}
	}
	return nil
}

// checkDecimal refuses a decimal that is set but not a finite number, or
// outside [least, most] when those are given.
func checkDecimal(name string, d Decimal, bounds ...float64) error {
	if !d.Valid() {
		return nil
	}
	if err := d.check(name); err != nil {
		return err
	}
	if len(bounds) == 2 && (d.Float64() < bounds[0] || d.Float64() > bounds[1]) {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be from %v to %v, got %s", bounds[0], bounds[1], d)}
	}
	return nil
}

// checkPresent refuses parameters p, named name, that are nil.
func checkPresent[T any](name string, p *T) error {
	if p == nil {
		return &ArgumentError{Name: name, Reason: "is required"}
	}
	return nil
}

// checkSomething refuses update parameters p, named name, that are nil or
// would send no field at all.
func checkSomething[T any](name string, p *T) error {
	if err := checkPresent(name, p); err != nil {
		return err
	}
	if b, err := json.Marshal(p); err == nil && string(b) == "{}" {
		return &ArgumentError{Name: name, Reason: "must set at least one field"}
	}
	return nil
}

// firstError returns the first error of errs that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
