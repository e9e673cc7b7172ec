package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
	lanceio "github.com/lancego/lancego/io"
)

// clusteredBatch has a sorted id (so zone seeds can prune) and a payload.
func clusteredBatch(from, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Float64Builder).Append(float64(i*7%1000) / 3)
	}
	return b.NewRecordBatch()
}

// TestS3WriteThenFilteredScan writes a file straight to S3 (visible only
// after Close), reads it back, and checks that a selective filter on the
// clustered column requests only the surviving zones' bytes.
func TestS3WriteThenFilteredScan(t *testing.T) {
	base := s3Base(t)
	url := objectURL(base, fmt.Sprintf("write/clustered-%d.lance", time.Now().UnixNano()))
	ctx := context.Background()
	const rows = 200_000
	rec := clusteredBatch(0, rows)
	defer rec.Release()
	w, err := lance.Create(ctx, url, rec.Schema(), lance.WithZoneSeeds(8192))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if f, err := lance.Open(ctx, url); err == nil {
		f.Close()
		t.Error("the file is visible before Close")
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	full := scanStats(t, url, nil)
	filter, err := expr.Parse("id >= 100000 AND id < 100010")
	if err != nil {
		t.Fatal(err)
	}
	pruned := scanStats(t, url, filter)
	t.Logf("full scan: %d requests, %d bytes; filtered: %d requests, %d bytes, %d of %d zones pruned",
		full.Requests, full.BytesRead, pruned.Requests, pruned.BytesRead, pruned.ZonesPruned, pruned.ZonesTotal)
	if pruned.ZonesPruned == 0 || pruned.ZonesPruned+1 < pruned.ZonesTotal {
		t.Errorf("pruned %d of %d zones, want all but one", pruned.ZonesPruned, pruned.ZonesTotal)
	}
	if pruned.BytesRead*4 > full.BytesRead {
		t.Errorf("filtered scan read %d bytes, full scan %d", pruned.BytesRead, full.BytesRead)
	}
}

// scanStats scans url (with a filter, if given) in a fresh File and
// returns its statistics; a filtered scan must return exactly 10 rows.
func scanStats(t *testing.T, url string, filter expr.Expr) lance.Stats {
	t.Helper()
	ctx := context.Background()
	f, err := lance.Open(ctx, url, lance.WithIOConfig(lanceio.Config{Stats: lanceio.NewStats()}))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for rec, err := range f.Batches(ctx, lance.ScanOptions{Filter: filter}) {
		if err != nil {
			t.Fatal(err)
		}
		n += int(rec.NumRows())
		rec.Release()
	}
	if filter != nil && n != 10 {
		t.Errorf("filtered scan returned %d rows, want 10", n)
	}
	return f.Stats()
}
