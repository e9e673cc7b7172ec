package bench

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"

	lanceio "github.com/lancego/lancego/io"
)

// S3Env is an S3-compatible server to benchmark against.
type S3Env struct {
	Endpoint, Bucket, KeyID, Secret, Region string
	// ServerPID is the server's process (LANCE_TEST_S3_SERVER_PID), whose
	// CPU per request the benchmark reports; 0 when unknown.
	ServerPID int
}

// S3FromEnv reads the server from the variables .ci/objectstores.sh env
// exports (LANCE_TEST_S3_ENDPOINT, LANCE_TEST_S3_BUCKET, AWS_*).
func S3FromEnv() (S3Env, bool) {
	e := S3Env{Endpoint: os.Getenv("LANCE_TEST_S3_ENDPOINT"), Bucket: os.Getenv("LANCE_TEST_S3_BUCKET"),
		KeyID: os.Getenv("AWS_ACCESS_KEY_ID"), Secret: os.Getenv("AWS_SECRET_ACCESS_KEY"), Region: os.Getenv("AWS_REGION")}
	if e.Region == "" {
		e.Region = "us-east-1"
	}
	e.ServerPID, _ = strconv.Atoi(os.Getenv("LANCE_TEST_S3_SERVER_PID"))
	ok := e.Endpoint != "" && e.Bucket != "" && e.KeyID != "" && e.Secret != ""
	return e, ok
}

// URL is the lancego URL of key through endpoint (the proxy or the server).
func (e S3Env) URL(endpoint, key string) string {
	q := url.Values{"endpoint": {endpoint}, "use_path_style": {"true"}, "region": {e.Region}}
	return fmt.Sprintf("s3://%s/%s?%s", e.Bucket, key, q.Encode())
}

// PyPath is the pylance path of key.
func (e S3Env) PyPath(key string) string { return fmt.Sprintf("s3://%s/%s", e.Bucket, key) }

// StorageOptions are pylance's storage options for endpoint.
func (e S3Env) StorageOptions(endpoint string) map[string]string {
	return map[string]string{
		"aws_endpoint": endpoint, "aws_access_key_id": e.KeyID, "aws_secret_access_key": e.Secret,
		"aws_region": e.Region, "allow_http": "true", "aws_virtual_hosted_style_request": "false",
	}
}

// Upload copies a local file to key on the server.
func (e S3Env) Upload(ctx context.Context, local, key string) error {
	in, err := os.Open(local)
	if err != nil {
		return err
	}
	defer in.Close()
	w, err := lanceio.Create(ctx, e.URL(e.Endpoint, key), lanceio.Config{})
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// Warm reads key once straight from the server (not through the proxy),
// so that the server's files are in the OS page cache before a timed run,
// as warmPageCache does for local files.
func (e S3Env) Warm(ctx context.Context, key string) error {
	obj, err := lanceio.Open(ctx, e.URL(e.Endpoint, key), lanceio.Config{})
	if err != nil {
		return err
	}
	defer obj.Close()
	buf := make([]byte, 8<<20)
	for off := int64(0); off < obj.Size(); off += int64(len(buf)) {
		n := min(int64(len(buf)), obj.Size()-off)
		if err := obj.ReadAt(ctx, buf[:n], off); err != nil {
			return err
		}
	}
	return nil
}
