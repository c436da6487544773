package postgres

// GuessStats answers how many updates s made on a guessed state (see
// known), and how many of those guesses were wrong.
func GuessStats(s *Store) (guessed, wrong int64) {
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	return s.known.guessed, s.known.wrong
}
