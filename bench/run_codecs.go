package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/codecs/alp"
)

// The codecs step (issue "the seed's 2.3 codecs"): for float series and
// vectors, the file size and scan speed of each 2.3 value codec against
// flat, against byte-stream-split + zstd (what Lance 14 picks for floats
// asked to compress with zstd) and against Parquet (pqarrow, zstd), plus
// the decode speed of ALP alone. Every file holds one column; all are
// written by our writer at 2.3, so the comparison is the codec alone.

// codecVariant is one way of storing a column.
type codecVariant struct {
	name string
	meta map[string]string // lance-encoding:* keys; nil for Parquet
}

// noDict is a dictionary size ratio no page meets: flat and bss+zstd are
// compared as codecs, without the dictionary Lance would try first.
const noDict = "0.000001"

var codecVariants = []codecVariant{
	{"flat", map[string]string{"lance-encoding:compression": "none", "lance-encoding:bss": "off", "lance-encoding:dict-size-ratio": noDict}},
	{"bss+zstd", map[string]string{"lance-encoding:compression": "zstd", "lance-encoding:bss": "on", "lance-encoding:dict-size-ratio": noDict}},
	{"alp", map[string]string{"lance-encoding:alp": "on"}},
	{"pcodec", map[string]string{"lance-encoding:compression": "pcodec", "lance-encoding:compression-level": "8"}},
	{"parquet", nil},
}

// codecSeries is one data set of the codecs step.
type codecSeries struct {
	name string
	dim  int // 0: a float64 column; else float32 vectors of dim
	gen  func(r *rand.Rand, i int, prev float64) float64
}

var codecSeriesList = []codecSeries{
	{"price_walk", 0, func(r *rand.Rand, _ int, p float64) float64 {
		return math.Round((p+r.NormFloat64()*0.05)*100) / 100
	}},
	{"sensor_rounded", 0, func(r *rand.Rand, i int, _ float64) float64 {
		return math.Round((20+5*math.Sin(float64(i)/3600)+r.NormFloat64()*0.2)*10) / 10
	}},
	{"smooth_f64", 0, func(_ *rand.Rand, i int, _ float64) float64 { return 100 * math.Sin(float64(i)/1000) }},
	{"vectors_f32", 128, func(r *rand.Rand, _ int, _ float64) float64 { return r.NormFloat64() }},
}

// codecs runs the codecs step.
func (r *runner) codecs(ctx context.Context) error {
	rows := 1 << 20
	if r.cfg.Quick {
		rows = 1 << 17
	}
	dir := filepath.Join(r.cfg.DataDir, "codecs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range codecSeriesList {
		n := rows
		if s.dim > 0 {
			n = rows / 32 // 32k vectors of 128 floats (4M floats) at full size
		}
		rec := s.record(n)
		err := r.codecSeries(ctx, dir, s, rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

// record builds the series as a one-column batch.
func (s codecSeries) record(n int) arrow.RecordBatch {
	rnd := rand.New(rand.NewPCG(21, uint64(len(s.name))))
	mem := memory.NewGoAllocator()
	if s.dim == 0 {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		p := 100.0
		for i := range n {
			p = s.gen(rnd, i, p)
			b.Append(p)
		}
		return oneColumn(s, b.NewArray())
	}
	b := array.NewFixedSizeListBuilder(mem, int32(s.dim), arrow.PrimitiveTypes.Float32)
	defer b.Release()
	vb := b.ValueBuilder().(*array.Float32Builder)
	for i := range n {
		b.Append(true)
		for range s.dim {
			vb.Append(float32(s.gen(rnd, i, 0)))
		}
	}
	return oneColumn(s, b.NewArray())
}

// oneColumn wraps a as the batch of column "v".
func oneColumn(s codecSeries, a arrow.Array) arrow.RecordBatch {
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: a.DataType()}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
}

// codecSeries writes and scans one series in every variant.
func (r *runner) codecSeries(ctx context.Context, dir string, s codecSeries, rec arrow.RecordBatch) error {
	decoded := int64(rec.NumRows()) * 8
	if s.dim > 0 {
		decoded = int64(rec.NumRows()) * int64(s.dim) * 4
	}
	for _, v := range codecVariants {
		wl := "codecs/" + s.name + "/" + v.name
		if v.name == "alp" && s.dim > 0 {
			continue // ALP stores f32/f64 columns, not vectors
		}
		path := filepath.Join(dir, s.name+"."+v.name)
		m, err := r.codecMeasure(ctx, path, v, rec)
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		engine := EngineLanceGo
		if v.meta == nil {
			engine = EnginePqarrow
		}
		r.res.put(wl, engine, m.fill(decoded))
		r.logf("%s: %d bytes (%.3f of raw), scan %.2f GB/s", wl, m.FileBytes, float64(m.FileBytes)/float64(decoded), m.fill(decoded).GBPerSec)
	}
	if s.dim == 0 {
		return r.alpDecode(s, rec)
	}
	return nil
}

// codecMeasure writes rec in variant v and times a scan of it.
func (r *runner) codecMeasure(ctx context.Context, path string, v codecVariant, rec arrow.RecordBatch) (Measure, error) {
	var err error
	if v.meta == nil {
		err = writeCodecParquet(path, rec)
	} else {
		err = writeCodecLance(ctx, path, v.meta, rec)
	}
	if err != nil {
		return Measure{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Measure{}, err
	}
	if err := warmFiles(path); err != nil {
		return Measure{}, err
	}
	var m Measure
	if v.meta == nil {
		m, err = PqarrowScan(ctx, path, "v", ScanBatchSize, ScanWarmups, r.cfg.scanRepeat())
	} else {
		m, err = OursScan(ctx, ScanSpec{URL: path, Column: "v", BatchSize: ScanBatchSize, Repeat: r.cfg.scanRepeat(),
			Warmups: ScanWarmups, IO: r.ioConfig(), Options: r.ours()})
	}
	m.FileBytes = fi.Size()
	return m, err
}

// writeCodecLance writes rec as a 2.3 file whose column carries meta.
func writeCodecLance(ctx context.Context, path string, meta map[string]string, rec arrow.RecordBatch) error {
	f := rec.Schema().Field(0)
	f.Metadata = arrow.MetadataFrom(meta)
	schema := arrow.NewSchema([]arrow.Field{f}, nil)
	out := array.NewRecordBatch(schema, rec.Columns(), rec.NumRows())
	defer out.Release()
	w, err := lance.Create(ctx, path, schema, lance.WithFileVersion("2.3"))
	if err != nil {
		return err
	}
	if err := w.Write(ctx, out); err != nil {
		w.Abort()
		return err
	}
	return w.Close(ctx)
}

// writeCodecParquet writes rec with pqarrow, zstd, in row groups of
// ParquetRowGroupRows.
func writeCodecParquet(path string, rec arrow.RecordBatch) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer out.Close()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows))
	w, err := pqarrow.NewFileWriter(rec.Schema(), out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	return w.Close()
}

// alpDecode times alp.DecodePage alone on the series (output GB/s).
func (r *runner) alpDecode(s codecSeries, rec arrow.RecordBatch) error {
	raw := rec.Column(0).(*array.Float64).Data().Buffers()[1].Bytes()[:rec.NumRows()*8]
	chunks, ok, err := alp.EncodePage(raw, 64, alp.Options{Mode: alp.On})
	if err != nil || !ok {
		return err
	}
	dst := make([]byte, 0, len(raw))
	n := int(rec.NumRows())
	best, err := timeBest(r.cfg.scanRepeat(), func() error {
		var err error
		dst, err = alp.DecodePage(dst[:0], chunks, 64, n)
		return err
	})
	if err != nil {
		return err
	}
	wl := "codecs/" + s.name + "/alp_decode"
	m := Measure{Seconds: best, Rows: n}.fill(int64(len(raw)))
	r.res.put(wl, EngineLanceGo, m)
	r.logf("%s: %.2f GB/s of output (%s)", wl, m.GBPerSec, time.Duration(best*1e9))
	return nil
}
