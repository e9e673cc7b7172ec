package lanceio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gocloud.dev/blob"
)

// Signed-URL reads. Each S3 GetObject call runs the AWS SDK's middleware
// stack (serialization, endpoint rules, SigV4 signing, response
// deserialization): about 0.3 ms of CPU a request here, twice what the rest
// of a ranged read costs. An object's reads instead share one presigned GET
// URL, signed through gocloud's SignedURL and renewed well before it
// expires; each read is then a plain HTTP GET with a Range (and If-Match)
// header, which a presigned URL leaves unsigned.
const (
	// signedURLExpiry is how long a presigned read URL is valid.
	signedURLExpiry = 15 * time.Minute
	// signedURLRenewal is the age at which a presigned URL is replaced.
	signedURLRenewal = 5 * time.Minute
	// freshSignature is the age below which a refused URL is taken to
	// mean the store refuses presigned reads (a bucket policy can), not
	// that its credentials expired.
	freshSignature = time.Minute
)

// httpDoer sends HTTP requests (an *http.Client, or the SDK's client).
type httpDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// signedReads is a bucket's presigned-URL read path; nil when turned off.
type signedReads struct {
	client httpDoer
	off    atomic.Bool // set once the store refused a fresh URL or signing failed
}

// disabled reports whether the bucket's reads go through the SDK.
func (s *signedReads) disabled() bool { return s == nil || s.off.Load() }

// signedURL is one object's current presigned read URL.
type signedURL struct {
	mu       sync.Mutex
	url      string
	signedAt time.Time
}

// currentURL returns the object's presigned URL, signing a new one when there
// is none or it is due for renewal.
func (o *blobObject) currentURL(ctx context.Context) (string, time.Time, error) {
	u := &o.signed
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.url != "" && time.Since(u.signedAt) < signedURLRenewal {
		return u.url, u.signedAt, nil
	}
	now := time.Now()
	s, err := o.d.rb.SignedURL(ctx, o.key, &blob.SignedURLOptions{Expiry: signedURLExpiry, Method: http.MethodGet})
	if err != nil {
		return "", time.Time{}, err
	}
	u.url, u.signedAt = s, now
	return s, now, nil
}

// forgetURL drops url if it is still the object's current one.
func (o *blobObject) forgetURL(url string) {
	u := &o.signed
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.url == url {
		u.url = ""
	}
}

// errSignedRefused marks a presigned GET answered 401 or 403.
var errSignedRefused = errors.New("presigned URL refused")

// readSignedOnce reads p at off through the object's presigned URL. ok is
// false when the read must go through the SDK instead: signing failed, or
// the store refused the URL (the read is then repeated through the SDK,
// which reports a real permission error; a refused fresh URL turns the
// bucket's signed reads off).
func (o *blobObject) readSignedOnce(ctx context.Context, p []byte, off int64, base int, notify ReadProgress) (n int, ok bool, err error) {
	url, signedAt, err := o.currentURL(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return 0, true, err
		}
		o.d.signed.off.Store(true) // cannot sign (anonymous credentials, say): use the SDK
		return 0, false, nil
	}
	t0 := time.Now()
	n, err = o.getRange(ctx, url, p, off, base, notify)
	o.cfg.Stats.observe(time.Since(t0), n)
	if errors.Is(err, errSignedRefused) {
		if time.Since(signedAt) < freshSignature {
			o.d.signed.off.Store(true)
		}
		o.forgetURL(url)
		return 0, false, nil
	}
	return n, true, err
}

// getRange issues one GET of url for bytes [off, off+len(p)) and fills p.
func (o *blobObject) getRange(ctx context.Context, url string, p []byte, off int64, base int, notify ReadProgress) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, redactURL(err, o.id.URL)
	}
	end := off + int64(len(p)) - 1
	req.Header.Set("Range", "bytes="+strconv.FormatInt(off, 10)+"-"+strconv.FormatInt(end, 10))
	if o.id.ETag != "" {
		req.Header.Set("If-Match", o.id.ETag)
	}
	resp, err := o.d.signed.client.Do(req)
	if err != nil {
		return 0, redactURL(err, o.id.URL)
	}
	defer resp.Body.Close()
	if err := checkRangeResponse(resp, off, end, o.id.Size); err != nil {
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10) // let a short error body free the connection
		return 0, err
	}
	n, err := readFullProgress(resp.Body, p, base, notify)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = fmt.Errorf("%w: body ended after %d of %d bytes: %w", ErrShortRead, n, len(p), err)
	}
	return n, err
}

// redactURL replaces the presigned URL that net/http puts in its errors
// with the object's URL: the signature in it grants reads of the object
// to whoever finds it in a log.
func redactURL(err error, objectURL string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = objectURL
	}
	return err
}

// checkRangeResponse accepts a 206 for exactly [off, end] of an object of
// size bytes (or a 200 when that range is the whole object) and turns
// any other answer into an error classify understands.
func checkRangeResponse(resp *http.Response, off, end, size int64) error {
	switch resp.StatusCode {
	case http.StatusPartialContent:
		want := "bytes " + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(end, 10) + "/"
		if cr := resp.Header.Get("Content-Range"); len(cr) < len(want) || cr[:len(want)] != want {
			return fmt.Errorf("asked for bytes %d-%d, the store answered Content-Range %q", off, end, cr)
		}
		return nil
	case http.StatusOK:
		if off == 0 && end == size-1 {
			return nil
		}
		return fmt.Errorf("asked for bytes %d-%d, the store ignored the Range header", off, end)
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w: %w", errSignedRefused, statusError(resp.StatusCode))
	}
	return statusError(resp.StatusCode)
}

// statusError is an HTTP error status of a signed read.
type statusError int

func (e statusError) Error() string {
	return fmt.Sprintf("HTTP %d %s", int(e), http.StatusText(int(e)))
}

// HTTPStatusCode lets classify treat it like the SDKs' status errors.
func (e statusError) HTTPStatusCode() int { return int(e) }
