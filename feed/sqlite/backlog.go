package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// Backlog implements feed.BacklogReader: the changes in the file, the
// oldest of them, and those this process holds under a live lease (the
// file is one process's: its host name and pid name it).
func (s *Store) Backlog(ctx context.Context) (feed.StoreBacklog, error) {
	var b feed.StoreBacklog
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM feed_changes").Scan(&b.Waiting); err != nil {
		return feed.StoreBacklog{}, fmt.Errorf("sqlite: reading the backlog: %w", err)
	}
	var c feed.Claim
	var kind string
	var attempts int
	err := s.db.QueryRowContext(ctx, "SELECT kind, id, seq, data, attempts FROM feed_changes ORDER BY n LIMIT 1").
		Scan(&kind, &c.Resource.ID, &c.Seq, &c.Data, &attempts)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return feed.StoreBacklog{}, fmt.Errorf("sqlite: reading the backlog: %w", err)
	default:
		c.Resource.Kind = feed.Kind(kind)
		b.Oldest = &c
	}
	now := time.Now()
	held := int64(0)
	s.mu.Lock()
	for _, l := range s.claims {
		if l.token != "" && (l.until.After(now) || l.acking) && !l.acked {
			held++
		}
	}
	if l := s.claims[c.Resource]; b.Oldest != nil && l != nil && l.seq == c.Seq {
		attempts += l.attempt
	}
	s.mu.Unlock()
	if b.Oldest != nil {
		b.Oldest.Attempt = attempts
	}
	if held > 0 {
		b.Held = map[string]int64{processName(): held}
	}
	return b, nil
}

// processName names this process as a holder of leases: its host name
// and pid, as the feed's MemoryStore does.
func processName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return host + "/" + strconv.Itoa(os.Getpid())
}
