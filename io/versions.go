package lanceio

import (
	"strconv"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	azblobblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"gocloud.dev/blob"
)

// version returns the identity version token of an object: the generation
// on GCS (the only token a ranged read also reports), else the ETag.
func (d *blobDriver) version(a *blob.Attributes) string {
	var oa storage.ObjectAttrs
	if d.scheme == "gs" && a.As(&oa) {
		return "gen:" + strconv.FormatInt(oa.Generation, 10)
	}
	return a.ETag
}

// readerOptions returns per-read options: on S3 If-Match the opened ETag,
// on GCS match the opened generation, so a replaced object fails with
// ErrChanged instead of mixing versions. GCS reads also turn off the
// storage client's own retries (they are retried here).
func (d *blobDriver) readerOptions(id Identity) *blob.ReaderOptions {
	switch {
	case d.scheme == "s3" && id.ETag != "":
		return s3IfMatch(id.ETag)
	case d.scheme == "gs":
		gen, _ := strconv.ParseInt(strings.TrimPrefix(id.ETag, "gen:"), 10, 64)
		return gcsReadOptions(gen)
	case d.scheme == "azblob" && id.ETag != "":
		return azureIfMatch(id.ETag)
	}
	return nil
}

func gcsReadOptions(gen int64) *blob.ReaderOptions {
	return &blob.ReaderOptions{BeforeRead: func(as func(any) bool) error {
		var oh **storage.ObjectHandle
		if as(&oh) {
			*oh = gcsHandle(*oh, gen)
		}
		return nil
	}}
}

// gcsHandle disables the client's retries and, when gen > 0, pins the
// generation.
func gcsHandle(oh *storage.ObjectHandle, gen int64) *storage.ObjectHandle {
	oh = oh.Retryer(storage.WithPolicy(storage.RetryNever))
	if gen > 0 {
		oh = oh.If(storage.Conditions{GenerationMatch: gen})
	}
	return oh
}

// azureIfMatch makes an Azure read conditional on the opened ETag.
func azureIfMatch(etag string) *blob.ReaderOptions {
	return &blob.ReaderOptions{BeforeRead: func(as func(any) bool) error {
		var o *azblobblob.DownloadStreamOptions
		if as(&o) {
			e := azcore.ETag(etag)
			if o.AccessConditions == nil {
				o.AccessConditions = &azblobblob.AccessConditions{}
			}
			if o.AccessConditions.ModifiedAccessConditions == nil {
				o.AccessConditions.ModifiedAccessConditions = &azblobblob.ModifiedAccessConditions{}
			}
			o.AccessConditions.ModifiedAccessConditions.IfMatch = &e
		}
		return nil
	}}
}
