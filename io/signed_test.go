package lanceio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// readRanges reads n ranges of 1000 bytes of o and checks them against data.
func readRanges(t *testing.T, o lanceio.Object, data []byte, n int) {
	t.Helper()
	for i := range n {
		off := int64(i) * 7_000
		buf := make([]byte, 1000)
		if err := o.ReadAt(context.Background(), buf, off); err != nil {
			t.Fatalf("ReadAt(%d): %v", off, err)
		}
		if !bytes.Equal(buf, data[off:off+1000]) {
			t.Fatalf("ReadAt(%d): wrong bytes", off)
		}
	}
}

// TestSignedReadsShareOneURL checks that an object's reads are plain GETs
// of one presigned URL, on the fake and on the real S3 server, and that
// NoSignedReads sends each through the SDK.
func TestSignedReadsShareOneURL(t *testing.T) {
	endpoints := []string{""}
	if ep := os.Getenv("LANCE_TEST_S3_ENDPOINT"); ep != "" {
		endpoints = append(endpoints, ep)
	}
	for _, ep := range endpoints {
		for _, signed := range []bool{true, false} {
			t.Run(fmt.Sprintf("endpoint=%q/signed=%v", ep, signed), func(t *testing.T) { checkReadRequests(t, ep, signed) })
		}
	}
}

// checkReadRequests reads 5 ranges and checks how each was sent.
func checkReadRequests(t *testing.T, ep string, signed bool) {
	s, in, data := faultStoreOn(t, ep, signed)
	o, err := s.Open(context.Background(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	in.mu.Lock()
	in.signed, in.urls = nil, nil
	in.mu.Unlock()
	readRanges(t, o, data, 5)
	for i, sig := range in.signed {
		if sig != signed {
			t.Fatalf("request %d presigned=%v", i, sig)
		}
		if signed && in.urls[i] != in.urls[0] {
			t.Fatalf("read %d signed again: %s vs %s", i, in.urls[i], in.urls[0])
		}
	}
	if len(in.signed) != 5 {
		t.Fatalf("%d requests for 5 reads", len(in.signed))
	}
}

// TestRefusedSignedURLFallsBackToTheSDK checks that a store refusing a
// freshly presigned URL gets the read through the SDK, and every later
// read of the bucket too.
func TestRefusedSignedURLFallsBackToTheSDK(t *testing.T) {
	s, o, in, data := scriptedObject(t, forbidden)
	readRanges(t, o, data, 3)
	if want := []bool{true, false, false, false}; !slices.Equal(in.signed, want) {
		t.Fatalf("presigned per request = %v, want %v", in.signed, want)
	}
	o2, err := s.Open(context.Background(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	in.signed = nil
	readRanges(t, o2, data, 1)
	if !slices.Equal(in.signed, []bool{false}) {
		t.Fatalf("another object of the bucket: presigned per request = %v, want the SDK", in.signed)
	}
	if _, err := s.Open(context.Background(), "missing"); !errors.Is(err, lanceio.ErrNotFound) {
		t.Fatalf("Open(missing) = %v", err)
	}
}

// TestSignedReadErrorsHideTheSignature checks that a failed presigned read
// names the object, not the presigned URL (whose signature grants reads).
func TestSignedReadErrorsHideTheSignature(t *testing.T) {
	_, o, in, _ := scriptedObject(t, reset, reset, reset, reset)
	err := o.ReadAt(context.Background(), make([]byte, 100), 0)
	if err == nil || !in.signed[0] {
		t.Fatalf("ReadAt = %v, presigned %v; want a failed presigned read", err, in.signed)
	}
	if msg := err.Error(); strings.Contains(msg, "X-Amz-Signature") || !strings.Contains(msg, o.Identity().URL) {
		t.Fatalf("error %q shows the signature or hides the object", msg)
	}
}

// scriptedObject opens "obj" of a fake-S3 store reading through presigned
// URLs, with script as the faults of its next requests.
func scriptedObject(t *testing.T, script ...fault) (*lanceio.Store, lanceio.Object, *injector, []byte) {
	s, in, data := faultStore(t)
	o, err := s.Open(context.Background(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	in.mu.Lock()
	in.script, in.signed = script, nil
	in.mu.Unlock()
	return s, o, in, data
}
