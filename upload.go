package workforce

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"sync"
)

// ErrNotResent is matched by the error of an upload that got an answer
// calling for the request to be sent again (429 Too Many Requests, or 401
// Unauthorized with a token to renew) when its reader cannot be rewound: it
// was sent once and not again. Pass an io.Seeker, such as an *os.File of a
// regular file, to have it rewound and sent again.
var ErrNotResent = errors.New("workforce: the upload's reader cannot be rewound, so it was not sent again")

// errNotRewindable is what reading a second copy of an upload whose reader
// cannot be rewound returns; nothing should ever ask for one.
var errNotRewindable = errors.New("workforce: the upload's reader cannot be rewound to be sent again")

// errUploadDone ends a copy of an upload that is no longer wanted.
var errUploadDone = errors.New("workforce: the upload's body was closed")

// A multipartFile is a multipart/form-data body holding one file field,
// streamed from its reader as it is sent: the file is never held in
// memory. Each attempt to send it opens a body of its own; only one body
// at a time reads the file, and a reader that cannot be rewound is read by
// one body at most.
type multipartFile struct {
	field, filename, fileType string
	boundary                  string
	src                       io.Reader
	seeker                    io.Seeker // src, when it can be rewound; else nil
	start                     int64     // src's offset when it was handed over

	mu      sync.Mutex
	read    bool           // a body has started reading src
	current *multipartBody // the body reading src, or nil
	done    bool           // the call is over: no body may start
}

// newMultipartFile returns the body sending src as the file of field. src
// is rewound before a resend when it is an io.Seeker that can seek.
func newMultipartFile(field, filename, fileType string, src io.Reader) *multipartFile {
	f := &multipartFile{field: field, filename: filename, fileType: fileType, src: src,
		boundary: multipart.NewWriter(io.Discard).Boundary()}
	if s, ok := src.(io.Seeker); ok {
		if at, err := s.Seek(0, io.SeekCurrent); err == nil { // a pipe is an *os.File that cannot seek
			f.seeker, f.start = s, at
		}
	}
	return f
}

func (f *multipartFile) contentType() string {
	return mime.FormatMediaType("multipart/form-data", map[string]string{"boundary": f.boundary})
}

func (f *multipartFile) replayable() bool { return f.seeker != nil }

// open returns a body that starts reading the file at its first Read. Until
// then it costs nothing: an attempt that fails before it sends anything
// leaves the file unread.
func (f *multipartFile) open() io.ReadCloser { return &multipartBody{f: f} }

// close stops the body reading the file, if any, and waits for it to let
// go of the reader, which is the caller's again once the call returns.
func (f *multipartFile) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done = true
	f.stopCurrent()
}

// stopCurrent ends the body reading the file and waits until it has let
// go of the reader. f.mu is held.
func (f *multipartFile) stopCurrent() {
	if b := f.current; b != nil {
		b.pr.CloseWithError(errUploadDone)
		<-b.stopped
		f.current = nil
	}
}

// begin makes b the body that reads the file, rewinding it if another body
// read it before.
func (f *multipartFile) begin(b *multipartBody) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.done || b.closed:
		return errUploadDone
	case f.read && f.seeker == nil:
		return errNotRewindable
	}
	f.stopCurrent()
	if f.read {
		if _, err := f.seeker.Seek(f.start, io.SeekStart); err != nil {
			return fmt.Errorf("workforce: rewinding the upload: %w", err)
		}
	}
	f.read = true
	pr, pw := io.Pipe()
	b.pr, b.stopped, f.current = pr, make(chan struct{}), b
	go f.write(pw, b.stopped)
	return nil
}

// write writes the multipart body into pw, reading the file as pw is read.
func (f *multipartFile) write(pw *io.PipeWriter, stopped chan<- struct{}) {
	var err error
	defer func() {
		if p := recover(); p != nil { // the caller's reader panicked: fail the call, not the program
			err = fmt.Errorf("workforce: reading the upload panicked: %v", p)
		}
		pw.CloseWithError(err)
		close(stopped)
	}()
	mw := multipart.NewWriter(pw)
	if err = mw.SetBoundary(f.boundary); err != nil {
		return
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": f.field, "filename": f.filename}))
	h.Set("Content-Type", f.fileType)
	part, err := mw.CreatePart(h)
	if err != nil {
		return
	}
	if _, err = io.Copy(part, f.src); err != nil {
		return
	}
	err = mw.Close()
}

// A multipartBody is one copy of a multipartFile, for one attempt.
type multipartBody struct {
	f       *multipartFile
	pr      *io.PipeReader // set by begin; nil until the first Read
	stopped chan struct{}  // closed when the writer has let go of the file
	closed  bool
	err     error // why the body could not begin
}

// Read begins the body at its first call, then reads it.
func (b *multipartBody) Read(p []byte) (int, error) {
	b.f.mu.Lock()
	pr, err := b.pr, b.err
	b.f.mu.Unlock()
	if pr == nil && err == nil {
		err = b.f.begin(b)
		b.f.mu.Lock()
		pr, b.err = b.pr, err
		b.f.mu.Unlock()
	}
	if err != nil {
		return 0, err
	}
	return pr.Read(p)
}

// Close ends the body; the file is not read for it any more.
func (b *multipartBody) Close() error {
	b.f.mu.Lock()
	defer b.f.mu.Unlock()
	b.closed = true
	if b.pr != nil {
		b.pr.CloseWithError(errUploadDone)
	}
	return nil
}
