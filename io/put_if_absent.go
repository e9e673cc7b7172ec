package lanceio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	azblobblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// ErrExists: a conditional create found the key already present.
var ErrExists = errors.New("lanceio: already exists")

// CanPutIfAbsent reports whether the store's backend supports PutIfAbsent:
// local files (hard link, which never replaces), S3 (If-None-Match: *),
// GCS (ifGenerationMatch=0) and Azure (If-None-Match: *). The mem://
// store has no conditional write.
func (s *Store) CanPutIfAbsent() bool {
	switch d := s.drv.(type) {
	case *localDriver:
		return true
	case *blobDriver:
		switch d.scheme {
		case "s3", "gs", "azblob":
			return true
		}
	}
	return false
}

// PutIfAbsent writes data under key only if no object has that key, in
// one atomic step: it fails with ErrExists (errors.Is) when the key is
// present, and with ErrUnsupported when the backend cannot write
// conditionally (see CanPutIfAbsent). It is the commit primitive of a
// dataset: two writers racing for the same key never both succeed.
func (s *Store) PutIfAbsent(ctx context.Context, key string, data []byte) error {
	if err := s.check("put-if-absent", key); err != nil {
		return err
	}
	if !s.CanPutIfAbsent() {
		return &OpError{Op: "put-if-absent", URL: s.URL(key), Class: ErrUnsupported,
			Err: fmt.Errorf("%w: store has no conditional write", ErrUnsupported)}
	}
	switch d := s.drv.(type) {
	case *localDriver:
		return d.putIfAbsent(ctx, s, key, data)
	case *blobDriver:
		return d.putIfAbsent(ctx, s, key, data)
	}
	return nil
}

// putIfAbsent writes a fsynced temporary file and hard-links it to the
// destination: link(2) fails with EEXIST instead of replacing.
func (d *localDriver) putIfAbsent(ctx context.Context, s *Store, key string, data []byte) error {
	url := s.URL(key)
	if err := ctx.Err(); err != nil {
		return &OpError{Op: "put-if-absent", URL: url, Class: ErrCanceled, Err: canceledError(ctx)}
	}
	dst := d.path(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return localError("put-if-absent", url, err)
	}
	f, err := tempFileFor(dst)
	if err != nil {
		return localError("put-if-absent", url, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return localError("put-if-absent", url, err)
	}
	if err := os.Link(f.Name(), dst); err != nil {
		if errors.Is(err, os.ErrExist) {
			return &OpError{Op: "put-if-absent", URL: url, Class: ErrExists, Err: ErrExists}
		}
		return localError("put-if-absent", url, err)
	}
	if dir, err := os.Open(filepath.Dir(dst)); err == nil {
		_ = dir.Sync()
		_ = dir.Close()
	}
	return nil
}

// putIfAbsent uploads with the backend's create-only precondition set
// through gocloud's BeforeWrite As hook; a hook the driver does not offer
// fails the write rather than writing unconditionally.
func (d *blobDriver) putIfAbsent(ctx context.Context, s *Store, key string, data []byte) error {
	url := s.URL(key)
	set := false
	before := func(as func(any) bool) error {
		switch d.scheme {
		case "s3":
			var in *transfermanager.UploadObjectInput
			if as(&in) {
				in.IfNoneMatch = aws.String("*")
				set = true
			}
		case "gs":
			var h **storage.ObjectHandle
			if as(&h) {
				*h = (*h).If(storage.Conditions{DoesNotExist: true})
				set = true
			}
		case "azblob":
			var o *azblob.UploadStreamOptions
			if as(&o) {
				setAzureIfNoneMatch(o)
				set = true
			}
		}
		if !set {
			return fmt.Errorf("%w: no conditional write hook for %s", ErrUnsupported, d.scheme)
		}
		return nil
	}
	err := d.wb.WriteAll(ctx, d.key(key), data, &blob.WriterOptions{ContentType: "application/octet-stream", BeforeWrite: before})
	if err == nil {
		return nil
	}
	switch gcerrors.Code(err) {
	case gcerrors.FailedPrecondition, gcerrors.AlreadyExists:
		return &OpError{Op: "put-if-absent", URL: url, Class: ErrExists, Err: fmt.Errorf("%w: %v", ErrExists, err)}
	}
	if errors.Is(err, ErrUnsupported) {
		return &OpError{Op: "put-if-absent", URL: url, Class: ErrUnsupported, Err: err}
	}
	return &OpError{Op: "put-if-absent", URL: url, Class: classify(ctx, err), Err: err}
}

// setAzureIfNoneMatch makes an Azure upload create-only (If-None-Match: *).
func setAzureIfNoneMatch(o *azblob.UploadStreamOptions) {
	if o.AccessConditions == nil {
		o.AccessConditions = &azblobblob.AccessConditions{}
	}
	if o.AccessConditions.ModifiedAccessConditions == nil {
		o.AccessConditions.ModifiedAccessConditions = &azblobblob.ModifiedAccessConditions{}
	}
	etag := azcore.ETagAny
	o.AccessConditions.ModifiedAccessConditions.IfNoneMatch = &etag
}
