package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"testing"
)

// TestZoneSeedsReadByLance checks that files with zone seeds (extra global
// buffers and schema metadata) written by our writer are still read by
// real Lance with identical values, at both file versions.
func TestZoneSeedsReadByLance(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("no pylance venv (set LANCE_PY or create .ci/venv)")
	}
	ctx := context.Background()
	for _, ver := range []string{"2.1", "2.2"} {
		for _, rpz := range []uint64{0, 100} {
			r := rand.New(rand.NewPCG(uint64(len(ver)), rpz))
			path := writeZoneFile(t, r, 20_000, rpz == 0, rpz, filewriter.WithFileVersion(ver), filewriter.WithZoneSeeds(rpz), filewriter.WithPageBudget(64<<10))
			f, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			seeds, problems, err := f.ZoneSeeds(ctx)
			if err != nil || len(problems) != 0 || len(seeds) != len(zoneSchema.Fields()) {
				t.Fatalf("%s: seeds %d, problems %v, err %v", ver, len(seeds), problems, err)
			}
			exp := writeExpectedJSON(t, f)
			f.Close()
			verifyWithLance(t, py, path, exp)
		}
	}
}
