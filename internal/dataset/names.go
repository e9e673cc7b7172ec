package dataset

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Directory and file names inside a dataset root.
const (
	VersionsDir = "_versions"
	DataDir     = "data"
	DeletionDir = "_deletions"
	// HintFile holds {"version": N}: a hint at the latest version, which
	// may lag behind or be missing, never trusted without the manifest.
	HintFile = "latest_version_hint.json"
	// LegacyLatest is the pre-V1 copy of the latest manifest; ignored.
	LegacyLatest = "_latest.manifest"
	manifestExt  = ".manifest"
)

// Naming is how a dataset names its manifest files.
type Naming uint8

const (
	// NamingV1 names version v "{v}.manifest".
	NamingV1 Naming = 1
	// NamingV2 names version v "{u64::MAX - v}.manifest", zero-padded to
	// 20 digits, so that a lexical listing returns the newest first.
	NamingV2 Naming = 2
)

// ManifestName returns the file name (under _versions/) of version v.
func ManifestName(v uint64, n Naming) string {
	if n == NamingV2 {
		return fmt.Sprintf("%020d%s", math.MaxUint64-v, manifestExt)
	}
	return strconv.FormatUint(v, 10) + manifestExt
}

// ParseManifestName returns the version a manifest file name (base name,
// without directory) stands for and its naming; ok is false for any other
// name, including _latest.manifest and temporary files.
func ParseManifestName(name string) (v uint64, n Naming, ok bool) {
	digits, found := strings.CutSuffix(name, manifestExt)
	if !found || digits == "" || len(digits) > 20 {
		return 0, 0, false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
	}
	x, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	if len(digits) == 20 {
		if x == math.MaxUint64 { // would be version 0, which is never written
			return 0, 0, false
		}
		return math.MaxUint64 - x, NamingV2, true
	}
	if x == 0 || (len(digits) > 1 && digits[0] == '0') {
		return 0, 0, false
	}
	return x, NamingV1, true
}

// DeletionName returns the path, relative to the dataset root, of a
// fragment's deletion file: _deletions/{fragment}-{read_version}-{id}.{arrow|bin}.
func DeletionName(fragment uint64, d DeletionFile) string {
	ext := "arrow"
	if d.Bitmap {
		ext = "bin"
	}
	return fmt.Sprintf("%s/%d-%d-%d.%s", DeletionDir, fragment, d.ReadVersion, d.ID, ext)
}
