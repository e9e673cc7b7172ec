package integration

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// gcsBase returns the fake-gcs-server bucket URL, or skips the test.
func gcsBase(t *testing.T) string {
	if os.Getenv("STORAGE_EMULATOR_HOST") == "" {
		t.Skip("STORAGE_EMULATOR_HOST not set: start fake-gcs-server with .ci/objectstores.sh")
	}
	bucket := os.Getenv("LANCE_TEST_GCS_BUCKET")
	if bucket == "" {
		bucket = "lance-test"
	}
	return "gs://" + bucket
}

// azureBase returns the Azurite container URL (creating the container),
// or skips the test.
func azureBase(t *testing.T) string {
	ep := os.Getenv("LANCE_TEST_AZURE_ENDPOINT")
	if ep == "" || os.Getenv("AZURE_STORAGE_ACCOUNT") == "" {
		t.Skip("LANCE_TEST_AZURE_ENDPOINT / AZURE_STORAGE_ACCOUNT not set: start Azurite with LANCE_CI_AZURITE=1 .ci/objectstores.sh start")
	}
	ensureContainer(t, ep, "lance-test")
	return "azblob://lance-test?protocol=http&localemu=true&domain=" + url.QueryEscape(ep)
}

// TestDatasetOverGCS is TestDatasetOverS3 through gs:// (fake-gcs-server):
// the committed pylance datasets and gen_datasets.py's history (every
// write operation, a roaring deletion file), every version read as
// pylance read it, and the same request bounds.
func TestDatasetOverGCS(t *testing.T) {
	checkDatasetsOnStore(t, gcsBase(t))
}

// TestDatasetOverAzure is TestDatasetOverS3 through azblob:// (Azurite).
func TestDatasetOverAzure(t *testing.T) {
	checkDatasetsOnStore(t, azureBase(t))
}

func checkDatasetsOnStore(t *testing.T, base string) {
	checkCommittedDatasets(t, base)
	t.Run("history", func(t *testing.T) {
		checkDatasetOn(t, base, filepath.Join(pylanceDatasets(t), "2.1", "history"), "history", 5)
	})
}
