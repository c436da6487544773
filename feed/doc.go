// Package feed hands every state change of Jobs and Job Requests to a
// Handler, once per change and in order per resource, from whatever copies
// of them arrive: webhook deliveries (at least once, unordered, some never),
// the sync that Run makes on an interval as the safety net, and copies the
// caller ingests.
//
//	store, _ := sqlite.Open(ctx, "feed.db") // or feed.NewMemoryStore(), postgres.Open(ctx, dsn)
//	f, err := feed.New(client, secretKey, func(ctx context.Context, c *feed.Change) error {
//		if c.Kind == feed.KindJob && c.To == "approved" {
//			return pay(ctx, c.Job) // nil acknowledges the change
//		}
//		return nil
//	}, feed.WithStore(store))
//	http.Handle("/webhooks", f) // verifies, stores, then answers 204
//	go f.Run(ctx)               // hands changes over; syncs every minute
//
// # What a change is
//
// A Job's changes are its transitions: every copy of a Job lists all of
// them, so any copy tells every change up to it. The feed hands over each
// transition (identified by its id) that it has not queued before, in the
// order of the copy's history, From the state of the transition before it.
// A state the platform did not record is not invented: a Job that went
// filled then completed is handed over as filled, then filled → completed.
//
// A Job Request carries no history, only its state and updated_at, so the
// feed compares copies: a copy newer than the newest it ingested (a later
// updated_at, or the same one and a state further along the Job Request's
// life: draft, posted, filled, in_progress, completed, approved, then
// cancelled or unfilled) whose state differs from the last known one is a
// change, From that state. What the feed cannot promise there: a state
// that no ingested copy showed is never seen (posted → filled → in_progress
// may arrive as posted → in_progress); a copy older than one already
// ingested is dropped, never handed over; and of two changes within one
// updated_at, only one to a state further along is taken (filled → posted
// within the same instant is missed until the next change). From "" means
// the feed knew no earlier state.
//
// # What "exactly once" means
//
// Each change is queued exactly once, however many copies reveal it, and is
// acknowledged exactly once: the store records it as handled, and never
// hands it over after that. The Handler is called at least once: if it
// fails, panics, or the process dies before its acknowledgment is stored,
// the change is handed over again (Change.Attempt counts), to this Feed or,
// on a shared store, another one once the lease expires (PostgreSQL: once
// the instance is seen dead, within seconds, or its lease expires). A Handler whose
// effects must happen exactly once either makes them idempotent, or uses a
// store's transactional handler (sqlite.Store.TxHandler,
// postgres.Store.TxHandler: once its transaction committed, the change is
// acknowledged whatever the handler does after, even fail), whose writes commit in the same transaction as
// the acknowledgment.
//
// Changes of one resource are handed over one at a time, in order: a Job's
// next change is not handed to any Feed sharing the store before the
// handler of the one before it has returned and the change is
// acknowledged (not while it is held by a handler, or waits for a retry
// after an error). With a TxHandler too: work a handler does after its
// transaction committed is done before the next change's handler starts,
// unless the lease was lost meanwhile. Changes of different resources are handed over
// concurrently (WithWorkers), in no promised order.
//
// A delivery is answered 2xx only after its copy is stored, so a copy the
// feed could not keep is delivered again by the platform; one the platform
// gave up on is found by the next sync. The sync's watermark is kept in
// the store and advanced only once everything it read is stored.
//
// docs/FEED.md holds the design and the argument for these guarantees.
package feed
