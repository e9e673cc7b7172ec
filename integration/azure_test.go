package integration

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
)

// TestAzureReadsEqualLocalReads reads golden files through azblob://
// (Azurite) and compares them with local reads.
func TestAzureReadsEqualLocalReads(t *testing.T) {
	ep := os.Getenv("LANCE_TEST_AZURE_ENDPOINT")
	if ep == "" || os.Getenv("AZURE_STORAGE_ACCOUNT") == "" {
		t.Skip("LANCE_TEST_AZURE_ENDPOINT / AZURE_STORAGE_ACCOUNT not set: start Azurite with LANCE_CI_AZURITE=1 .ci/objectstores.sh start")
	}
	ensureContainer(t, ep, "lance-test")
	base := "azblob://lance-test?protocol=http&localemu=true&domain=" + url.QueryEscape(ep)
	checkReadsEqualLocal(t, base, corpusFiles(t)[:12])
}

// ensureContainer creates an Azure container (gocloud does not).
func ensureContainer(t *testing.T, ep, name string) {
	acct := os.Getenv("AZURE_STORAGE_ACCOUNT")
	cred, err := azblob.NewSharedKeyCredential(acct, os.Getenv("AZURE_STORAGE_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := azblob.NewClientWithSharedKeyCredential("http://"+ep+"/"+acct, cred, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = c.CreateContainer(context.Background(), name, nil); err != nil && !bloberror.HasCode(err, bloberror.ContainerAlreadyExists) {
		t.Fatal(err)
	}
}
