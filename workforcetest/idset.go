package workforcetest

import "math/bits"

// chunkIDs is how many ids one chunk of an idSet holds.
const chunkIDs = 64 * 64

// idSet is a set of positive ids as a bitmap, in chunks of 4,096 ids allocated when an id of
// theirs enters, each chunk counting its ids: a set of a few ids is small, and finding the n-th
// id from the top costs a step per chunk and per word of one chunk, whatever the set holds.
type idSet struct {
	chunks []*idChunk // chunk i holds the ids from i*chunkIDs to (i+1)*chunkIDs-1
	n      int
}

// idChunk is one chunk of an idSet.
type idChunk struct {
	n     int
	words [64]uint64
}

// place returns the chunk, word and bit of id.
func place(id int64) (chunk, word int, bit uint64) {
	return int(id / chunkIDs), int(id % chunkIDs / 64), 1 << uint(id%64)
}

// add puts id in the set.
func (s *idSet) add(id int64) {
	c, w, b := place(id)
	for len(s.chunks) <= c {
		s.chunks = append(s.chunks, nil)
	}
	if s.chunks[c] == nil {
		s.chunks[c] = new(idChunk)
	}
	if ch := s.chunks[c]; ch.words[w]&b == 0 {
		ch.words[w] |= b
		ch.n++
		s.n++
	}
}

// remove takes id out of the set.
func (s *idSet) remove(id int64) {
	c, w, b := place(id)
	if c >= len(s.chunks) || s.chunks[c] == nil || s.chunks[c].words[w]&b == 0 {
		return
	}
	ch := s.chunks[c]
	ch.words[w] &^= b
	ch.n--
	s.n--
	if ch.n == 0 {
		s.chunks[c] = nil
	}
}

// len returns how many ids the set holds; a nil set is empty.
func (s *idSet) len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// ascending returns the ids of the set, lowest first.
func (s *idSet) ascending() []int64 {
	if s == nil {
		return nil
	}
	out := make([]int64, 0, s.n)
	for c, ch := range s.chunks {
		if ch == nil {
			continue
		}
		for w, word := range ch.words {
			for ; word != 0; word &= word - 1 {
				out = append(out, int64(c*chunkIDs+w*64+bits.TrailingZeros64(word)))
			}
		}
	}
	return out
}

// page returns at most n ids of the set, highest first, after skipping the skip highest.
func (s *idSet) page(skip, n int) []int64 {
	if s == nil || skip >= s.n {
		return []int64{}
	}
	out := make([]int64, 0, min(n, s.n-skip))
	for c := len(s.chunks) - 1; c >= 0 && len(out) < n; c-- {
		ch := s.chunks[c]
		if ch == nil {
			continue
		}
		if skip >= ch.n {
			skip -= ch.n
			continue
		}
		for w := 63; w >= 0 && len(out) < n; w-- {
			word := ch.words[w]
			if k := bits.OnesCount64(word); skip >= k {
				skip -= k
				continue
			}
			for ; word != 0 && len(out) < n; word &^= 1 << uint(63-bits.LeadingZeros64(word)) {
				if skip > 0 {
					skip--
					continue
				}
				out = append(out, int64(c*chunkIDs+w*64+63-bits.LeadingZeros64(word)))
			}
		}
	}
	return out
}

// intersect returns the ids every one of sets holds (sets holds at least one set). The sets are
// left as they are.
func intersect(sets []*idSet) *idSet {
	if len(sets) == 1 {
		return sets[0]
	}
	out := &idSet{}
	n := len(sets[0].chunks)
	for _, s := range sets[1:] {
		n = min(n, len(s.chunks))
	}
	out.chunks = make([]*idChunk, n)
	for c := range n {
		var words [64]uint64
		empty := false
		for i, s := range sets {
			ch := s.chunks[c]
			if ch == nil {
				empty = true
				break
			}
			if i == 0 {
				words = ch.words
				continue
			}
			for w := range words {
				words[w] &= ch.words[w]
			}
		}
		if empty {
			continue
		}
		ch := &idChunk{words: words}
		for _, word := range words {
			ch.n += bits.OnesCount64(word)
		}
		if ch.n > 0 {
			out.chunks[c] = ch
			out.n += ch.n
		}
	}
	return out
}

// union returns the ids any one of sets holds (nil sets are empty). The sets are left as they are.
func union(sets []*idSet) *idSet {
	out := &idSet{}
	for _, s := range sets {
		if s == nil {
			continue
		}
		for len(out.chunks) < len(s.chunks) {
			out.chunks = append(out.chunks, nil)
		}
		for c, ch := range s.chunks {
			if ch == nil {
				continue
			}
			if out.chunks[c] == nil {
				out.chunks[c] = new(idChunk)
			}
			o := out.chunks[c]
			out.n -= o.n
			o.n = 0
			for w := range o.words {
				o.words[w] |= ch.words[w]
				o.n += bits.OnesCount64(o.words[w])
			}
			out.n += o.n
		}
	}
	return out
}

// descending calls yield with the ids of the set, highest first, until it returns false.
func (s *idSet) descending(yield func(int64) bool) {
	if s == nil {
		return
	}
	for c := len(s.chunks) - 1; c >= 0; c-- {
		ch := s.chunks[c]
		if ch == nil {
			continue
		}
		for w := 63; w >= 0; w-- {
			for word := ch.words[w]; word != 0; {
				top := 63 - bits.LeadingZeros64(word)
				if !yield(int64(c*chunkIDs + w*64 + top)) {
					return
				}
				word &^= 1 << uint(top)
			}
		}
	}
}
