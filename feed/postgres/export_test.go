package postgres

import "time"

// GuessStats answers how many updates s made on a guessed state (see
// known), and how many of those guesses were wrong.
func GuessStats(s *Store) (guessed, wrong int64) {
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	return s.known.guessed, s.known.wrong
}

// Hold sets how long the changes leased to s at their ingest wait for a
// Claim before they are given back (100 ms when not set).
func Hold(s *Store, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = d
}

// Local answers how many changes leased to s at their ingest wait for its
// next Claim.
func Local(s *Store) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.local)
}

// Age makes the changes leased to s at their ingest d older, as if they
// had waited d for a Claim.
func Age(s *Store, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.local {
		s.local[i].at = s.local[i].at.Add(-d)
		s.local[i].kept = s.local[i].kept.Add(-d)
	}
}

// ReturnStale gives back at once what returnStale would after hold.
func ReturnStale(s *Store) { s.returnStale() }

// Kill makes s as a process that died: its lock's connection closes
// abruptly (its session, and the lock, end on the server) and no Store
// takes its lock again.
func Kill(s *Store) {
	close(s.killed)
	s.mu.Lock()
	conn := s.lockConn
	s.lockConn = nil
	s.mu.Unlock()
	if conn != nil {
		_ = conn.PgConn().Conn().Close()
	}
}

// DropLock closes s's lock's connection abruptly, as a network failure
// would: s takes its lock again.
func DropLock(s *Store) {
	s.mu.Lock()
	conn := s.lockConn
	s.mu.Unlock()
	if conn != nil {
		_ = conn.PgConn().Conn().Close()
	}
}

// Name answers the name of s's leases and lock.
func Name(s *Store) string { return s.name }
