package workforce_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/workforce-marketplace/workforce-go"
)

// TestParametersSpeakOneVocabulary checks that every method refuses nil
// parameters with the same words, and every update that sets nothing with
// the same words, whatever the resource: the checks go through check.go.
func TestParametersSpeakOneVocabulary(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	nils := map[string]func() error{
		"JobCreate":                func() error { _, _, err := c.Jobs.Create(ctx, nil); return err },
		"JobUpdate":                func() error { _, _, err := c.Jobs.Update(ctx, 1, nil); return err },
		"JobRequestParams":         func() error { _, _, err := c.JobRequests.Create(ctx, nil); return err },
		"MultiDayJobRequestParams": func() error { _, _, err := c.MultiDayJobRequests.Create(ctx, nil); return err },
		"BadgeParams":              func() error { _, _, err := c.Badges.Create(ctx, nil); return err },
		"CustomerParams":           func() error { _, _, err := c.Customers.Create(ctx, nil); return err },
		"MessageCreate":            func() error { _, _, err := c.Messages.Create(ctx, nil); return err },
		"UserCreate":               func() error { _, _, err := c.Users.Create(ctx, nil); return err },
		"UserUpdate":               func() error { _, _, err := c.Users.Update(ctx, 1, nil); return err },
		"UserInvite":               func() error { _, _, err := c.Users.Invite(ctx, nil); return err },
		"RawRequest":               func() error { _, err := c.Do(ctx, nil, nil); return err },
	}
	empties := map[string]func() error{
		"JobUpdate":        func() error { _, _, err := c.Jobs.Update(ctx, 1, &workforce.JobUpdate{}); return err },
		"JobRequestParams": func() error { _, _, err := c.JobRequests.Update(ctx, 1, &workforce.JobRequestParams{}); return err },
		"MultiDayJobRequestParams": func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 1, &workforce.MultiDayJobRequestParams{})
			return err
		},
		"BadgeParams":    func() error { _, _, err := c.Badges.Update(ctx, 1, &workforce.BadgeParams{}); return err },
		"CustomerParams": func() error { _, _, err := c.Customers.Update(ctx, 1, &workforce.CustomerParams{}); return err },
		"UserUpdate":     func() error { _, _, err := c.Users.Update(ctx, 1, &workforce.UserUpdate{}); return err },
	}
	for want, cases := range map[string]map[string]func() error{"is required": nils, "must set at least one field": empties} {
		for name, run := range cases {
			var argErr *workforce.ArgumentError
			if assert.True(t, errors.As(run(), &argErr), "%s: %s", name, want) {
				assert.Equal(t, name, argErr.Name)
				assert.Equal(t, want, argErr.Reason, name)
			}
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing may be sent")
}
