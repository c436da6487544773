package workforce

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkID refuses an ID that is not positive.
func checkID(name string, id int64) error {
	if id <= 0 {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be positive, got %d", id)}
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

// checkIDs refuses a list holding an ID that is not positive.
func checkIDs(name string, ids []int64) error {
	for i, id := range ids {
		if err := checkID(fmt.Sprintf("%s[%d]", name, i), id); err != nil {
			return err
		}
	}
	return nil
}

// checkOptionalID refuses a negative ID; 0 means "not set".
func checkOptionalID(name string, id int64) error {
	if id < 0 {
		return &ArgumentError{Name: name, Reason: fmt.Sprintf("must not be negative, got %d", id)}
	}
	return nil
}

// checkSomething refuses update parameters p, named name, that are nil or
// would send no field at all.
func checkSomething[T any](name string, p *T) error {
	if p == nil {
		return &ArgumentError{Name: name, Reason: "is required"}
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
