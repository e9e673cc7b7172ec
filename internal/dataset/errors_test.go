package dataset

import (
	"context"
	"encoding/binary"
	"errors"
	"github.com/lancego/lancego/internal/fileread"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/tablepb"
	lanceio "github.com/lancego/lancego/io"
)

// copyDataset copies testdata/datasets/name into a temporary directory.
func copyDataset(t *testing.T, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "testdata", "datasets", name))
}

// rewriteManifest re-frames the manifest of version v after edit.
func rewriteManifest(t *testing.T, root string, v uint64, edit func(m *tablepb.Manifest)) string {
	t.Helper()
	path := filepath.Join(root, VersionsDir, ManifestName(v, NamingV2))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := ManifestStart(int64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	var m tablepb.Manifest
	if err := proto.Unmarshal(b[pos+4:len(b)-FooterSize], &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	body, err := proto.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(append([]byte(nil), b[:pos]...), uint32(len(body)))
	out = append(out, body...)
	out = binary.LittleEndian.AppendUint64(out, uint64(pos))
	out = append(out, b[len(b)-8:]...) // major, minor, magic
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readAll opens the dataset and reads every row (Take of all offsets and
// a scan); it returns the first error.
func readAll(ctx context.Context, url string, opts ...fileread.Option) error {
	ds, err := OpenDataset(ctx, url, opts...)
	if err != nil {
		return err
	}
	defer ds.Close()
	for rec, err := range ds.Batches(ctx, DatasetScanOptions{ReadOptions: ReadOptions{WithRowID: true}}) {
		if err != nil {
			return err
		}
		rec.Release()
	}
	n, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	offs := make([]uint64, n)
	for i := range offs {
		offs[i] = uint64(i)
	}
	rec, err := ds.Take(ctx, offs, ReadOptions{})
	if err != nil {
		return err
	}
	rec.Release()
	return nil
}

// TestDatasetBadInput: each broken dataset gives one clear error naming
// the dataset, the version and the path at fault, wrapping the sentinel.
func TestDatasetBadInput(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) (url string, opts []fileread.Option)
		is    error
		says  []string
	}{
		{"plain directory", func(t *testing.T) (string, []fileread.Option) { return t.TempDir(), nil },
			ErrNotDataset, []string{"not a Lance dataset or file"}},
		{"missing version", func(t *testing.T) (string, []fileread.Option) {
			return filepath.Join("..", "..", "testdata", "datasets", "small"), []fileread.Option{WithVersion(99)}
		}, ErrVersionNotFound, []string{"version 99", "no such version", "99.manifest"}},
		{"missing data file", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			files, _ := filepath.Glob(filepath.Join(root, "data", "*.lance"))
			if err := os.Remove(files[0]); err != nil {
				t.Fatal(err)
			}
			return root, nil
		}, lanceio.ErrNotFound, []string{"version 4", "data/"}},
		{"missing deletion file", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			files, _ := filepath.Glob(filepath.Join(root, "_deletions", "*"))
			for _, f := range files {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			return root, nil
		}, lanceio.ErrNotFound, []string{"version 4", "_deletions/"}},
		{"truncated manifest", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			p := filepath.Join(root, VersionsDir, ManifestName(4, NamingV2))
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			return root, nil
		}, format.ErrCorrupt, []string{"version 4", "18446744073709551611.manifest"}},
		{"unknown reader feature", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			rewriteManifest(t, root, 4, func(m *tablepb.Manifest) { m.ReaderFeatureFlags |= 1 << 7 })
			return root, nil
		}, ErrUnsupportedFeature, []string{"version 4", "bit 7 (0x80)"}},
		{"deletion count mismatch", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			rewriteManifest(t, root, 4, func(m *tablepb.Manifest) { m.Fragments[0].DeletionFile.NumDeletedRows = 2 })
			return root, nil
		}, format.ErrCorrupt, []string{"version 4", "deletes 1 rows, manifest says 2"}},
		{"fragment without files", func(t *testing.T) (string, []fileread.Option) {
			root := copyDataset(t, "small")
			rewriteManifest(t, root, 4, func(m *tablepb.Manifest) { m.Fragments[1].Files = nil })
			return root, nil
		}, format.ErrCorrupt, []string{"version 4", "fragment 1 has no data file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, opts := tc.setup(t)
			err := readAll(ctx, url, opts...)
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.is)
			}
			msg := err.Error()
			for _, s := range append(tc.says, url) {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
			if !strings.HasPrefix(msg, "lance: ") || strings.Contains(msg, " lance: ") {
				t.Errorf("error %q does not have exactly one lance: prefix", msg)
			}
		})
	}
}

// TestDatasetBasePaths moves the data files to another root named by a
// base path (as shallow clones and multi-base datasets do) and reads the
// same rows.
func TestDatasetBasePaths(t *testing.T) {
	ctx := context.Background()
	for _, isRoot := range []bool{false, true} {
		root := copyDataset(t, "small")
		other := filepath.Join(t.TempDir(), "elsewhere")
		dataDir := other
		if isRoot {
			dataDir = filepath.Join(other, DataDir)
		}
		if err := os.MkdirAll(filepath.Dir(dataDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(root, DataDir), dataDir); err != nil {
			t.Fatal(err)
		}
		rewriteManifest(t, root, 4, func(m *tablepb.Manifest) {
			m.ReaderFeatureFlags |= FlagBasePaths
			m.BasePaths = []*tablepb.BasePath{{Id: 3, Path: other, IsDatasetRoot: isRoot}}
			for _, f := range m.Fragments {
				for _, df := range f.Files {
					df.BaseId = proto.Uint32(3)
				}
			}
		})
		exp := loadExpectedDataset(t, filepath.Join("..", "..", "testdata", "datasets", "small.expected.json"))
		exp.Versions = exp.Versions[3:] // version 4, the rewritten one
		checkDatasetAgainst(t, root, exp)
		if err := readAll(ctx, root, WithVersion(3)); !errors.Is(err, lanceio.ErrNotFound) {
			t.Fatalf("version 3 still names data/ under the root: %v", err)
		}
	}
}
