package lanceio_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"

	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/io/lanceiotest"
)

func openStore(t *testing.T, u string, cfg lanceio.Config) *lanceio.Store {
	t.Helper()
	s, err := lanceio.OpenStore(context.Background(), u, cfg)
	if err != nil {
		t.Fatalf("OpenStore(%s): %v", u, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestSuiteLocal(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, lanceio.Config{})
	put := func(t *testing.T, key string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(key))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("os.WriteFile", func(t *testing.T) {
		lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, Put: put, OneRequestTail: true})
	})
	t.Run("Store.Create", func(t *testing.T) {
		lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true})
	})
}

func TestSuiteFileURL(t *testing.T) {
	s := openStore(t, "file://"+filepath.ToSlash(t.TempDir())+"/sub", lanceio.Config{})
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true})
}

func TestSuiteMem(t *testing.T) {
	s := lanceio.NewMemStore(lanceio.Config{})
	t.Cleanup(func() { _ = s.Close() })
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: false})
}

// S3URL returns the test bucket URL from LANCE_TEST_S3_ENDPOINT and
// LANCE_TEST_S3_BUCKET, or skips.
func s3URL(t *testing.T) string {
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), os.Getenv("LANCE_TEST_S3_BUCKET")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set (run .ci/objectstores.sh start)")
	}
	if bucket == "" {
		bucket = "lance-test"
	}
	q := url.Values{"endpoint": {ep}, "use_path_style": {"true"}}
	if os.Getenv("AWS_REGION") == "" {
		q.Set("region", "us-east-1")
	}
	return "s3://" + bucket + "?" + q.Encode()
}

func TestSuiteS3(t *testing.T) {
	s := openStore(t, s3URL(t), lanceio.Config{})
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true, DetectsChange: true})
}

func TestSuiteS3Prefix(t *testing.T) {
	u, _ := url.Parse(s3URL(t))
	u.Path = "/nested/prefix"
	s := openStore(t, u.String(), lanceio.Config{})
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true, DetectsChange: true})
}

func gcsURL(t *testing.T) string {
	if os.Getenv("STORAGE_EMULATOR_HOST") == "" && os.Getenv("LANCE_TEST_GCS_BUCKET") == "" {
		t.Skip("STORAGE_EMULATOR_HOST not set (run .ci/objectstores.sh start)")
	}
	b := os.Getenv("LANCE_TEST_GCS_BUCKET")
	if b == "" {
		b = "lance-test"
	}
	return "gs://" + b
}

func TestSuiteGCS(t *testing.T) {
	s := openStore(t, gcsURL(t), lanceio.Config{})
	// DetectsChange is off: reads send a generation precondition, but
	// fake-gcs-server v1.56.1 ignores preconditions on downloads.
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true})
}

// TestSuiteGCSInjectedClient covers the storage-client path used when an
// HTTP client is injected (gcsblob ignores injected clients under the
// emulator otherwise).
func TestSuiteGCSInjectedClient(t *testing.T) {
	u := gcsURL(t)
	in := &injector{base: http.DefaultTransport}
	s := openStore(t, u, lanceio.Config{HTTPClient: &http.Client{Transport: in}})
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, OneRequestTail: true})
	if len(in.ranges) == 0 {
		t.Fatal("injected client saw no requests")
	}
}

func TestSuiteAzure(t *testing.T) {
	ep := os.Getenv("LANCE_TEST_AZURE_ENDPOINT") // e.g. 127.0.0.1:10000
	if ep == "" || os.Getenv("AZURE_STORAGE_ACCOUNT") == "" {
		t.Skip("LANCE_TEST_AZURE_ENDPOINT / AZURE_STORAGE_ACCOUNT not set")
	}
	createAzureContainer(t, ep, "lance-test")
	s := openStore(t, "azblob://lance-test?protocol=http&localemu=true&domain="+url.QueryEscape(ep), lanceio.Config{})
	lanceiotest.RunObjectSuite(t, lanceiotest.Harness{Store: s, DetectsChange: true, SmallTailOneRequest: true})
}

// createAzureContainer creates the test container (gocloud does not).
func createAzureContainer(t *testing.T, ep, name string) {
	acct := os.Getenv("AZURE_STORAGE_ACCOUNT")
	cred, err := azblob.NewSharedKeyCredential(acct, os.Getenv("AZURE_STORAGE_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := azblob.NewClientWithSharedKeyCredential("http://"+ep+"/"+acct, cred, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateContainer(context.Background(), name, nil)
	if err != nil && !bloberror.HasCode(err, bloberror.ContainerAlreadyExists) {
		t.Fatalf("create container: %v", err)
	}
}
