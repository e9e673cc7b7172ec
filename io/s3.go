package lanceio

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	gcaws "gocloud.dev/aws"
	"gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

// openS3 opens an S3 bucket the way gocloud's s3blob URL opener does, but
// with an optional injected HTTP client, and with two clients: reads
// without SDK retries (retried here, so attempts are counted and truncated
// bodies resumed) and writes with the SDK's standard retries, paced by
// the store's MaxAttempts, BaseDelay and MaxDelay (writeRetryer).
func openS3(ctx context.Context, u *url.URL, prefix string, cfg Config) (*blobDriver, error) {
	q := u.Query()
	var s3opts []func(*s3.Options)
	var bopts s3blob.Options
	for _, k := range []string{"use_path_style", "s3ForcePathStyle", "disable_https", "accelerate"} {
		v := q.Get(k)
		if v == "" {
			continue
		}
		q.Del(k)
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s=%q: %w", ErrInvalidURL, k, v, err)
		}
		s3opts = append(s3opts, s3BoolOption(k, b))
	}
	if v := q.Get("ssetype"); v != "" {
		q.Del("ssetype")
		bopts.EncryptionType = types.ServerSideEncryption(v)
	}
	if v := q.Get("kmskeyid"); v != "" {
		q.Del("kmskeyid")
		bopts.KMSEncryptionID = v
	}
	quietChecksums(q)
	acfg, err := gcaws.V2ConfigFromURLParams(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	if cfg.HTTPClient != nil {
		acfg.HTTPClient = cfg.HTTPClient
	} else if bc, ok := acfg.HTTPClient.(*awshttp.BuildableClient); ok {
		acfg.HTTPClient = bc.WithTransportOptions(keepIdleConns)
	}
	bopts.RequestChecksumCalculation = acfg.RequestChecksumCalculation
	readOpts := append(append([]func(*s3.Options){}, s3opts...), func(o *s3.Options) { o.Retryer = aws.NopRetryer{} })
	rb, err := s3blob.OpenBucket(ctx, s3.NewFromConfig(acfg, readOpts...), u.Host, &bopts)
	if err != nil {
		return nil, err
	}
	writeOpts := append(s3opts, func(o *s3.Options) { o.Retryer = writeRetryer(cfg) })
	wb, err := s3blob.OpenBucket(ctx, s3.NewFromConfig(acfg, writeOpts...), u.Host, &bopts)
	if err != nil {
		_ = rb.Close()
		return nil, err
	}
	closer := func() error { _ = wb.Close(); return rb.Close() }
	d := &blobDriver{scheme: "s3", bucket: u.Host, prefix: prefix, rb: rb, wb: wb, closer: closer}
	if !cfg.NoSignedReads {
		d.signed = &signedReads{client: acfg.HTTPClient}
	}
	return d, nil
}

func s3BoolOption(key string, v bool) func(*s3.Options) {
	return func(o *s3.Options) {
		switch key {
		case "use_path_style", "s3ForcePathStyle":
			o.UsePathStyle = v
		case "disable_https":
			o.EndpointOptions.DisableHTTPS = v
		case "accelerate":
			o.UseAccelerate = v
		}
	}
}

// quietChecksums defaults checksum handling to when_required unless the URL
// or the environment chose: ranged GETs cannot be validated against
// whole-object checksums and the SDK logs a warning for each one.
func quietChecksums(q url.Values) {
	if q.Get("response_checksum_validation") == "" && os.Getenv("AWS_RESPONSE_CHECKSUM_VALIDATION") == "" {
		q.Set("response_checksum_validation", "when_required")
	}
	if q.Get("request_checksum_calculation") == "" && os.Getenv("AWS_REQUEST_CHECKSUM_CALCULATION") == "" {
		q.Set("request_checksum_calculation", "when_required")
	}
}

// s3Range returns reader options that replace the Range header (used for
// suffix ranges, which gocloud cannot express).
func s3Range(rng string) *blob.ReaderOptions {
	return &blob.ReaderOptions{BeforeRead: func(as func(any) bool) error {
		var in *s3.GetObjectInput
		if as(&in) {
			in.Range = aws.String(rng)
		}
		return nil
	}}
}

// openTailS3 opens key and reads its tail with one suffix-range GET; the
// object size comes from Content-Range.
func (d *blobDriver) openTailS3(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error) {
	var (
		tail []byte
		id   Identity
	)
	op := &OpError{Op: "open", URL: s.URL(key)}
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		t0 := time.Now()
		r, err := d.rb.NewRangeReader(ctx, d.key(key), 0, -1, s3Range(fmt.Sprintf("bytes=-%d", n)))
		if err != nil {
			s.cfg.Stats.observe(time.Since(t0), 0)
			return err
		}
		defer func() { _ = r.Close() }()
		var out s3.GetObjectOutput
		r.As(&out)
		id = Identity{URL: s.URL(key), Size: r.Size(), ETag: aws.ToString(out.ETag), ModTime: httpTime(r.ModTime())}
		if out.ContentRange == nil && id.Size > n {
			s.cfg.Stats.observe(time.Since(t0), 0)
			return fmt.Errorf("%w: server ignored the suffix range", ErrUnsupported)
		}
		tail = make([]byte, min(n, id.Size))
		m, err := io.ReadFull(r, tail)
		s.cfg.Stats.observe(time.Since(t0), m)
		if err != nil {
			return fmt.Errorf("%w: tail body ended after %d of %d bytes: %w", ErrShortRead, m, len(tail), err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return d.newObject(s, key, id), tail, nil
}

func s3IfMatch(etag string) *blob.ReaderOptions {
	return &blob.ReaderOptions{BeforeRead: func(as func(any) bool) error {
		var in *s3.GetObjectInput
		if as(&in) {
			in.IfMatch = aws.String(etag)
		}
		return nil
	}}
}

// writeRetryer is the SDK's standard retryer (what it retries, its retry
// quota) with the store's attempts and full-jitter backoff, so a write is
// retried as often and as fast as a read.
func writeRetryer(cfg Config) aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = cfg.MaxAttempts
		o.MaxBackoff = cfg.MaxDelay
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, _ error) (time.Duration, error) {
			return backoff(cfg, attempt), nil
		})
	})
}
