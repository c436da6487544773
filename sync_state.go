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
	end   int       // the bracket's end below floor: a page number (0: not known)
	m     int       // the records that page held when first read (0: empty)
	pages []int     // the pages below floor read and yielded, ascending
	below bool      // every record below floor was yielded
}

// ErrSyncState is answered by SyncState.UnmarshalText for a text that is
// not a sync state of this version (corrupt or truncated), and yielded by
// a sync given a state that is not its own (another resource or another
// watermark). The state is left as it was.
var ErrSyncState = errors.New("workforce: sync: not a sync state of this resource and watermark")

// syncStatePrefix starts every encoded SyncState; its digit is the version.
const syncStatePrefix = "wfsync1:"

type syncStateJSON struct {
	Kind  string    `json:"k"`
	From  time.Time `json:"f"`
	Lower time.Time `json:"l"`
	Floor time.Time `json:"t"`
	End   int       `json:"e,omitempty"`
	M     int       `json:"m,omitempty"`
	Pages []int     `json:"p,omitempty"`
	Below bool      `json:"b,omitempty"`
}

// IsZero reports whether s holds no progress.
func (s SyncState) IsZero() bool { return s.kind == "" }

// MarshalText encodes s as printable ASCII: a version, the state and a
// checksum. The zero state encodes as the empty text.
func (s SyncState) MarshalText() ([]byte, error) {
	if s.IsZero() {
		return []byte{}, nil
	}
	body, err := json.Marshal(syncStateJSON{Kind: s.kind, From: s.from, Lower: s.lower, Floor: s.floor,
		End: s.end, M: s.m, Pages: s.pages, Below: s.below})
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
		return bad("not a sync state of version 1")
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
	if j.End < 0 || j.End > maxSpanPages || j.M < 0 || j.M >= MaxPerPage || j.Floor.IsZero() ||
		(!j.Lower.IsZero() && !j.Lower.Before(j.Floor)) || !slices.IsSorted(j.Pages) {
		return bad("inconsistent")
	}
	for _, p := range j.Pages {
		if p < 1 || p > j.End {
			return bad("inconsistent")
		}
	}
	*s = SyncState{kind: j.Kind, from: j.From, lower: j.Lower, floor: j.Floor, end: j.End, m: j.M, pages: j.Pages, below: j.Below}
	return nil
}
