package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// lockedUpdates makes under row locks the updates of ready that lost
// optimisticTries races, with the later updates of their resources, and
// answers the others.
func (s *Store) lockedUpdates(ctx context.Context, ready []*updateReq) []*updateReq {
	locked := map[feed.Resource]bool{}
	for _, r := range ready {
		if r.tries >= optimisticTries {
			locked[r.r] = true
		}
	}
	if len(locked) == 0 {
		return ready
	}
	var batch, rest []*updateReq
	for _, r := range ready {
		if locked[r.r] {
			batch = append(batch, r)
		} else {
			rest = append(rest, r)
		}
	}
	var err error
	for range 3 { // a deadlock or a serialization failure: again
		if err = s.lockedBatch(ctx, batch); !retryable(err) {
			break
		}
	}
	for r := range locked { // its version was bumped
		s.known.forget(r)
	}
	for _, r := range batch {
		if err != nil {
			r.done <- fmt.Errorf("postgres: %w", err)
		} else {
			r.done <- r.err
		}
	}
	return rest
}

// lockedBatch makes a batch of updates in one transaction that locks the
// batch's resource rows (created when missing) in (kind, id) order, so
// that two batches never wait for each other in a cycle. The changes it
// queues are claimable by every instance.
func (s *Store) lockedBatch(ctx context.Context, batch []*updateReq) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	done := false
	defer func() {
		if !done { // end the transaction (a broken connection ends it too)
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
	}()
	rs := sortedResources(batch)
	kinds, ids := make([]string, len(rs)), make([]int64, len(rs))
	for i, r := range rs {
		kinds[i], ids[i] = string(r.Kind), r.ID
	}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`INSERT INTO workforce_feed_resources (kind, id, record, version)
		SELECT kind, id, '', 0 FROM unnest($1::text[], $2::bigint[]) AS r(kind, id) ORDER BY kind, id
		ON CONFLICT (kind, id) DO UPDATE SET version = workforce_feed_resources.version + 1
		RETURNING kind, id, record`, kinds, ids)
	br := conn.SendBatch(ctx, b)
	records := make(map[feed.Resource][]byte, len(rs))
	_, err = br.Exec()
	if err == nil {
		var rows pgx.Rows
		if rows, err = br.Query(); err == nil {
			for rows.Next() {
				var r feed.Resource
				var kind string
				var rec []byte
				if err = rows.Scan(&kind, &r.ID, &rec); err != nil {
					break
				}
				r.Kind = feed.Kind(kind)
				if len(rec) > 0 {
					records[r] = rec
				}
			}
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	changed := map[feed.Resource]bool{}
	var cKinds []string
	var cIDs, cSeqs []int64
	var data [][]byte
	for _, r := range batch {
		next, queue, err := r.fn(records[r.r])
		r.err = err
		if err != nil {
			continue
		}
		if next != nil {
			records[r.r], changed[r.r] = next, true
		}
		for _, q := range queue {
			cKinds, cIDs, cSeqs, data = append(cKinds, string(r.r.Kind)), append(cIDs, r.r.ID), append(cSeqs, q.Seq), append(data, q.Data)
		}
	}
	b = &pgx.Batch{}
	for _, r := range rs {
		if changed[r] {
			b.Queue("UPDATE workforce_feed_resources SET record = $3 WHERE kind = $1 AND id = $2", string(r.Kind), r.ID, records[r])
		}
	}
	if len(data) > 0 {
		b.Queue(`INSERT INTO workforce_feed_changes (kind, id, seq, data)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[])`, cKinds, cIDs, cSeqs, data)
	}
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	done = true
	if len(data) > 0 {
		s.changed()
	}
	return nil
}
