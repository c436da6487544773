package workforce

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"time"
)

// SyncState is the progress of a sync that did not finish (an error, a
// break), for the next sync to resume from: set SyncOptions.Progress to it
// and the sync records its progress there; the next call, from the same
// watermark, does not read again what that progress covers. A sync that
// finishes leaves it zero. Persist it with MarshalText beside the
// watermark. The zero value is no progress.
type SyncState struct {
	kind  string    // the resource synced: "jobs", "job_requests", "users"
	from  time.Time // the watermark the sync began from
	lower time.Time // the bottom of its window (zero: open)
	floor time.Time // below it, no record could enter the window after the sync began
	parts []part    // the parts below floor not yet read whole; none: every record below floor was yielded
}

// part is a part of the window below the floor, [after, before) (after
// zero: open), read by one bracket, and that bracket's progress.
type part struct {
	after, before time.Time
	end           int   // the bracket's end: a page number (0: not known)
	m             int   // the records that page held when first read (0: empty)
	pages         []int // the pages read and yielded, ascending
	gone          bool  // read whole, or cut in parts (not kept)
}

// clone answers a copy of s that shares nothing with it, without the parts
// that are gone.
func (s SyncState) clone() SyncState {
	out := s
	out.parts = nil
	for _, p := range s.parts {
		if !p.gone {
			p.pages = slices.Clone(p.pages)
			out.parts = append(out.parts, p)
		}
	}
	return out
}

// record records what the bracket of part i reported: the end it found,
// that it read the part whole (read), that the part changed and is read
// again by slices, whose progress is not kept (fell), or that it cut the
// part in two (cut), which record appends, answering their indices.
func (s *SyncState) record(i int, end *bracketStart, read, fell bool, cut []span) []int {
	p := &s.parts[i]
	switch {
	case end != nil:
		p.end, p.m, p.pages = end.end, end.m, nil
	case read:
		p.gone = true
	case fell:
		p.end, p.m, p.pages = 0, 0, nil
	case cut != nil:
		p.gone = true
		var added []int
		for _, sp := range cut {
			added = append(added, len(s.parts))
			s.parts = append(s.parts, part{after: sp.after, before: sp.before})
		}
		return added
	}
	return nil
}

// pageRead records that every record of page of part i was yielded, once
// the end of its bracket is known.
func (s *SyncState) pageRead(i, page int) {
	if p := &s.parts[i]; p.end > 0 {
		if at, found := slices.BinarySearch(p.pages, page); !found {
			p.pages = slices.Insert(p.pages, at, page)
		}
	}
}

// ErrSyncState is answered by SyncState.UnmarshalText for a text that is
// not a sync state of this version (corrupt or truncated), and yielded by
// a sync given a state that is not its own (another resource or another
// watermark). The state is left as it was.
var ErrSyncState = errors.New("workforce: sync: not a sync state of this resource and watermark")

// syncStatePrefix starts every encoded SyncState; its digit is the version.
const syncStatePrefix = "wfsync2:"

type syncStateJSON struct {
	Kind  string     `json:"k"`
	From  time.Time  `json:"f"`
	Lower time.Time  `json:"l"`
	Floor time.Time  `json:"t"`
	Parts []partJSON `json:"p,omitempty"`
}

type partJSON struct {
	After  time.Time `json:"a"`
	Before time.Time `json:"b"`
	End    int       `json:"e,omitempty"`
	M      int       `json:"m,omitempty"`
	Pages  []int     `json:"p,omitempty"`
}

// IsZero reports whether s holds no progress.
func (s SyncState) IsZero() bool { return s.kind == "" }

// MarshalText encodes s as printable ASCII: a version, the state and a
// checksum. The zero state encodes as the empty text.
func (s SyncState) MarshalText() ([]byte, error) {
	if s.IsZero() {
		return []byte{}, nil
	}
	j := syncStateJSON{Kind: s.kind, From: s.from, Lower: s.lower, Floor: s.floor}
	for _, p := range s.parts {
		if !p.gone {
			j.Parts = append(j.Parts, partJSON{After: p.after, Before: p.before, End: p.end, M: p.m, Pages: p.pages})
		}
	}
	body, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	enc := base64.RawURLEncoding.EncodeToString(body)
	return fmt.Appendf(nil, "%s%s.%08x", syncStatePrefix, enc, crc32.ChecksumIEEE(body)), nil
}

// UnmarshalText decodes a text written by MarshalText (the empty text is
// the zero state). Any other text, or one of another version, answers an
// error matching ErrSyncState and leaves s as it was.
func (s *SyncState) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*s = SyncState{}
		return nil
	}
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrSyncState, why) }
	rest, ok := bytes.CutPrefix(text, []byte(syncStatePrefix))
	if !ok {
		return bad("not a sync state of version 2")
	}
	enc, sum, ok := bytes.Cut(rest, []byte("."))
	if !ok {
		return bad("no checksum")
	}
	body, err := base64.RawURLEncoding.DecodeString(string(enc))
	if err != nil {
		return bad("not base64")
	}
	if want := fmt.Sprintf("%08x", crc32.ChecksumIEEE(body)); string(sum) != want {
		return bad("checksum mismatch")
	}
	var j syncStateJSON
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return bad("malformed")
	}
	switch j.Kind {
	case "jobs", "job_requests", "users":
	default:
		return bad("unknown resource")
	}
	// A window starting at or above its floor (a sync soon after the last)
	// has no part below it; one that has parts starts below the floor.
	if j.Floor.IsZero() || (len(j.Parts) > 0 && !j.Lower.IsZero() && !j.Lower.Before(j.Floor)) || len(j.Parts) > maxSpanPages {
		return bad("inconsistent")
	}
	parts := make([]part, 0, len(j.Parts))
	for _, p := range j.Parts {
		if p.End < 0 || p.End > maxSpanPages || p.M < 0 || p.M >= MaxPerPage || p.Before.IsZero() || p.Before.After(j.Floor) ||
			(!p.After.IsZero() && !p.After.Before(p.Before)) || p.After.Before(j.Lower) || !slices.IsSorted(p.Pages) ||
			(len(p.Pages) > 0 && (p.Pages[0] < 1 || p.Pages[len(p.Pages)-1] > p.End)) {
			return bad("inconsistent")
		}
		parts = append(parts, part{after: p.After, before: p.Before, end: p.End, m: p.M, pages: p.Pages})
	}
	*s = SyncState{kind: j.Kind, from: j.From, lower: j.Lower, floor: j.Floor, parts: parts}
	return nil
}
