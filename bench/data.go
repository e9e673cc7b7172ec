package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// genVersion changes whenever the generators change, so cached data sets
// made by an older generator are regenerated.
const genVersion = 1

// genBatchRows is the number of rows per generated record batch.
const genBatchRows = 64 << 10

// Dataset names.
const (
	// TableDataset holds the scalar, string, list and nullable columns.
	TableDataset = "table"
	// VectorDataset holds float32[768] embeddings.
	VectorDataset = "vectors"
	// DictDataset holds low-cardinality string columns (8 and 2,000
	// distinct values, short and 300–700-byte strings), which pylance
	// writes as dictionary pages (issue #19).
	DictDataset = "dict"
)

// DictColumns are the columns of DictDataset: dict<N>_<short|long> has N
// distinct values, short ones 8–24 characters, long ones 300–700 bytes
// (see dictIndex for how rows draw them).
var DictColumns = []string{"dict8_short", "dict2000_short", "dict8_long", "dict2000_long"}

// EmbeddingDim is the width of the embedding column.
const EmbeddingDim = 768

// Dataset describes one generated data set and where its files are.
type Dataset struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Seed uint64 `json:"seed"`
	// Columns are the top-level column names in schema order.
	Columns []string `json:"columns"`
	// ArrowBytes is the decoded (Arrow) size of each column: values,
	// offsets and validity buffers, as the generator built them.
	ArrowBytes map[string]int64 `json:"arrow_bytes"`
	Version    int              `json:"gen_version"`
	// Dir is the folder holding the data set's files.
	Dir string `json:"-"`
}

// IPCPath is the Arrow IPC file holding the generated rows.
func (d *Dataset) IPCPath() string { return filepath.Join(d.Dir, d.Name+".arrow") }

// LancePath is the Lance file written by pylance (real Lance).
func (d *Dataset) LancePath() string { return filepath.Join(d.Dir, d.Name+".pylance.lance") }

// GoLancePath is the Lance file written by our writer.
func (d *Dataset) GoLancePath() string { return filepath.Join(d.Dir, d.Name+".go.lance") }

// ParquetPath is the Parquet file written by arrow-go pqarrow.
func (d *Dataset) ParquetPath() string { return filepath.Join(d.Dir, d.Name+".parquet") }

func (d *Dataset) manifestPath() string { return filepath.Join(d.Dir, d.Name+".json") }

// Schema returns the Arrow schema of a data set.
func Schema(name string) *arrow.Schema {
	if name == DictDataset {
		fields := make([]arrow.Field, len(DictColumns))
		for i, c := range DictColumns {
			fields[i] = arrow.Field{Name: c, Type: arrow.BinaryTypes.String}
		}
		return arrow.NewSchema(fields, nil)
	}
	if name == ColumnsDataset {
		return columnsSchema()
	}
	if name == VectorDataset {
		return arrow.NewSchema([]arrow.Field{
			{Name: "emb", Type: arrow.FixedSizeListOf(EmbeddingDim, arrow.PrimitiveTypes.Float32)},
		}, nil)
	}
	return arrow.NewSchema([]arrow.Field{
		{Name: "i64_sorted", Type: arrow.PrimitiveTypes.Int64},
		{Name: "i64_random", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "str_short", Type: arrow.BinaryTypes.String},
		{Name: "str_long", Type: arrow.BinaryTypes.String},
		{Name: "list_i32", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
		{Name: "i64_nullable", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "str_nullable", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
}

// EnsureDataset returns the data set name with rows rows under dir,
// generating its Arrow IPC file unless a matching one is cached there.
func EnsureDataset(dir, name string, rows int, seed uint64) (*Dataset, error) {
	sub := filepath.Join(dir, fmt.Sprintf("%s-%d-s%d-v%d", name, rows, seed, genVersion))
	d := &Dataset{Name: name, Rows: rows, Seed: seed, Version: genVersion, Dir: sub}
	if b, err := os.ReadFile(d.manifestPath()); err == nil {
		var got Dataset
		if json.Unmarshal(b, &got) == nil && got.Rows == rows && got.Version == genVersion {
			if _, err := os.Stat(d.IPCPath()); err == nil {
				got.Dir = sub
				return &got, nil
			}
		}
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return nil, err
	}
	if err := d.generate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", name, err)
	}
	b, _ := json.MarshalIndent(d, "", "  ")
	return d, os.WriteFile(d.manifestPath(), b, 0o644)
}

// generate writes the data set's IPC file batch by batch.
func (d *Dataset) generate() error {
	schema := Schema(d.Name)
	for _, f := range schema.Fields() {
		d.Columns = append(d.Columns, f.Name)
	}
	d.ArrowBytes = map[string]int64{}
	tmp := d.IPCPath() + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer out.Close()
	w, err := ipc.NewFileWriter(out, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return err
	}
	g := newGenerator(d.Name, d.Seed)
	for start := 0; start < d.Rows; start += genBatchRows {
		rec := g.batch(schema, start, min(genBatchRows, d.Rows-start))
		for i, col := range rec.Columns() {
			d.ArrowBytes[schema.Field(i).Name] += arrowBytes(col.Data())
		}
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, d.IPCPath())
}

// arrowBytes sums the bytes of an array's buffers, children included.
func arrowBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrowBytes(c)
	}
	return n
}

// generator produces the deterministic rows of a data set.
type generator struct {
	rng    *rand.Rand
	sorted int64
	// ts and walk are the running timestamp and price (in cents) of
	// ColumnsDataset.
	ts, walk int64
	words    []string
	// vocab holds each dictionary column's distinct values.
	vocab map[string][]string
}

func newGenerator(name string, seed uint64) *generator {
	h := uint64(0)
	for _, c := range name {
		h = h*131 + uint64(c)
	}
	g := &generator{rng: rand.New(rand.NewPCG(seed, h))}
	g.words = makeWords(rand.New(rand.NewPCG(seed, 7)), 4096)
	return g
}

// makeWords builds a vocabulary with a few very frequent short words.
func makeWords(r *rand.Rand, n int) []string {
	const letters = "etaoinshrdlcumwfgypbvkjxqz"
	out := make([]string, n)
	for i := range out {
		l := 2 + int(math.Min(12, r.ExpFloat64()*4))
		var b strings.Builder
		for range l {
			b.WriteByte(letters[int(math.Min(25, r.ExpFloat64()*6))])
		}
		out[i] = b.String()
	}
	return out
}

// batch generates rows [start, start+n).
func (g *generator) batch(schema *arrow.Schema, start, n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		g.fill(f.Name, b.Field(i), n)
	}
	return b.NewRecordBatch()
}

func (g *generator) fill(col string, b array.Builder, n int) {
	if g.fillColumn(col, b, n) {
		return
	}
	switch col {
	case "i64_sorted":
		ib := b.(*array.Int64Builder)
		for range n {
			g.sorted += int64(g.rng.IntN(8))
			ib.Append(g.sorted)
		}
	case "i64_random":
		for range n {
			b.(*array.Int64Builder).Append(int64(g.rng.Uint64()))
		}
	case "f64":
		for range n {
			b.(*array.Float64Builder).Append(g.rng.NormFloat64() * 1000)
		}
	case "str_short":
		for range n {
			b.(*array.StringBuilder).Append(g.ident(8 + g.rng.IntN(17)))
		}
	case "str_long":
		for range n {
			b.(*array.StringBuilder).Append(g.text(64 + g.rng.IntN(449)))
		}
	case "list_i32":
		g.fillList(b.(*array.ListBuilder), n)
	case "i64_nullable":
		g.fillNullableInt(b.(*array.Int64Builder), n)
	case "str_nullable":
		g.fillNullableString(b.(*array.StringBuilder), n)
	case "emb":
		g.fillEmbeddings(b.(*array.FixedSizeListBuilder), n)
	case "dict8_short", "dict2000_short", "dict8_long", "dict2000_long":
		vocab := g.dictVocab(col)
		sb := b.(*array.StringBuilder)
		for range n {
			sb.Append(vocab[g.dictIndex(len(vocab))])
		}
	}
}

// Dictionary columns of more than dictHot values draw dictHotShare of
// their rows from the first dictHot values and the rest uniformly from the
// others (a skewed categorical, as real ones are). With 2,000 uniform
// values pylance does not dictionary-encode its 458,752-row pages of short
// strings: its sampling gate projects the unique share of a 4,096-value
// sample (about 0.43) onto the page, beyond its 100,000-entry cap.
const (
	dictHot      = 100
	dictHotShare = 0.9
)

// dictIndex draws a value index of a dictionary column of n values.
func (g *generator) dictIndex(n int) int {
	if n <= dictHot {
		return g.rng.IntN(n)
	}
	if g.rng.Float64() < dictHotShare {
		return g.rng.IntN(dictHot)
	}
	return dictHot + g.rng.IntN(n-dictHot)
}

// dictVocab returns the distinct values of dictionary column col, made
// once per generator from a seed of its own (so every batch draws from the
// same values).
func (g *generator) dictVocab(col string) []string {
	if v, ok := g.vocab[col]; ok {
		return v
	}
	n, long := 8, strings.HasSuffix(col, "_long")
	if strings.HasPrefix(col, "dict2000") {
		n = 2000
	}
	vg := &generator{rng: rand.New(rand.NewPCG(uint64(n), map[bool]uint64{false: 1, true: 2}[long])), words: g.words}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var s string
		if long {
			l := 300 + vg.rng.IntN(401)
			s = vg.text(l)[:l]
		} else {
			s = vg.ident(8 + vg.rng.IntN(17))
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if g.vocab == nil {
		g.vocab = map[string][]string{}
	}
	g.vocab[col] = out
	return out
}

func (g *generator) fillList(lb *array.ListBuilder, n int) {
	vb := lb.ValueBuilder().(*array.Int32Builder)
	for range n {
		lb.Append(true)
		for range g.rng.IntN(9) {
			vb.Append(int32(g.rng.IntN(100000)))
		}
	}
}

func (g *generator) fillNullableInt(ib *array.Int64Builder, n int) {
	for range n {
		if g.rng.IntN(5) == 0 {
			ib.AppendNull()
		} else {
			ib.Append(int64(g.rng.IntN(1 << 20)))
		}
	}
}

func (g *generator) fillNullableString(sb *array.StringBuilder, n int) {
	for range n {
		if g.rng.IntN(5) == 0 {
			sb.AppendNull()
		} else {
			sb.Append(g.words[g.rng.IntN(len(g.words))])
		}
	}
}

func (g *generator) fillEmbeddings(fb *array.FixedSizeListBuilder, n int) {
	vb := fb.ValueBuilder().(*array.Float32Builder)
	vals := make([]float32, EmbeddingDim)
	for range n {
		fb.Append(true)
		var norm float64
		for i := range vals {
			vals[i] = float32(g.rng.NormFloat64())
			norm += float64(vals[i]) * float64(vals[i])
		}
		s := float32(1 / math.Sqrt(norm))
		for i := range vals {
			vals[i] *= s
		}
		vb.AppendValues(vals, nil)
	}
}

// ident returns an identifier-like string of n characters.
func (g *generator) ident(n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[g.rng.IntN(len(chars))]
	}
	return string(b)
}

// text returns about n bytes of words separated by spaces.
func (g *generator) text(n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.words[zipf(g.rng, len(g.words))])
	}
	return b.String()
}

// zipf draws an index in [0, n) with a roughly Zipfian distribution.
func zipf(r *rand.Rand, n int) int {
	return min(n-1, int(math.Exp(r.Float64()*math.Log(float64(n))))-1)
}

// LoadRecords reads a data set's IPC file into memory.
func LoadRecords(d *Dataset) ([]arrow.RecordBatch, error) {
	f, err := os.Open(d.IPCPath())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]arrow.RecordBatch, 0, r.NumRecords())
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			ReleaseAll(out)
			return nil, err
		}
		rec.Retain()
		out = append(out, rec)
	}
	return out, nil
}

// ReleaseAll releases record batches.
func ReleaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}
