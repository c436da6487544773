package feedtest

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// killable is a Store that stops answering when killed, as the store of a
// process that died: no acknowledgment, release or lease renewal reaches
// the database after that.
type killable struct {
	feed.Store
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	outcomes int64         // Acks and Releases answered
	changed  chan struct{} // closed when outcomes grows
}

func newKillable(s feed.Store) *killable {
	ctx, cancel := context.WithCancel(context.Background())
	return &killable{Store: s, ctx: ctx, cancel: cancel, changed: make(chan struct{})}
}

// outcome counts an Ack or Release answered.
func (k *killable) outcome() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.outcomes++
	close(k.changed)
	k.changed = make(chan struct{})
}

// waitOutcomes waits until n Acks and Releases were answered (a minute at
// most: a store that never answers is the run's to report).
func (k *killable) waitOutcomes(n int64) {
	bound := time.NewTimer(time.Minute)
	defer bound.Stop()
	for {
		k.mu.Lock()
		done, ch := k.outcomes >= n, k.changed
		k.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-bound.C:
			return
		}
	}
}

var errDead = errors.New("feedtest: the instance was killed")

func (k *killable) kill()      { k.cancel() }
func (k *killable) dead() bool { return k.ctx.Err() != nil }

// with answers a context that ends when ctx does or the store is killed.
func (k *killable) with(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if k.dead() {
		return nil, nil, errDead
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(k.ctx, cancel)
	return ctx, func() { stop(); cancel() }, nil
}

func (k *killable) Update(ctx context.Context, r feed.Resource, fn func([]byte) ([]byte, []feed.Queued, error)) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Update(ctx, r, fn)
}

func (k *killable) Claim(ctx context.Context, n int, lease time.Duration) ([]feed.Claim, error) {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	cs, err := k.Store.Claim(ctx, n, lease)
	if k.dead() {
		return nil, errDead // claimed as it died: the claims are abandoned
	}
	return cs, err
}

func (k *killable) Ack(ctx context.Context, c feed.Claim) error {
	defer k.outcome()
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Ack(ctx, c)
}

func (k *killable) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Extend(ctx, c, lease)
}

func (k *killable) Release(ctx context.Context, c feed.Claim, at time.Time) error {
	defer k.outcome()
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Release(ctx, c, at)
}

func (k *killable) Mark(ctx context.Context, name string) (time.Time, error) {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return time.Time{}, err
	}
	defer done()
	return k.Store.Mark(ctx, name)
}

func (k *killable) SetMark(ctx context.Context, name string, t time.Time) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.SetMark(ctx, name, t)
}

// Wake forwards the wakeups of a store that has them, until killed.
func (k *killable) Wake(ctx context.Context, wake func()) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	if w, ok := k.Store.(feed.Waker); ok {
		return w.Wake(ctx, wake)
	}
	<-ctx.Done()
	return nil
}
