package zonestats

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// newMem returns a checked allocator that fails the test on leaks.
func newMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// arrayFromJSON builds an array of dt from a JSON list.
func arrayFromJSON(t testing.TB, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("FromJSON(%s, %s): %v", dt, js, err)
	}
	return arr
}

// collect runs a Collector over batches and returns the seed bytes.
func collect(t testing.TB, mem memory.Allocator, dt arrow.DataType, rpz uint64, bitmap bool, batches ...arrow.Array) []byte {
	t.Helper()
	c, err := NewCollector(dt, Config{RowsPerZone: rpz, NullBitmap: bitmap, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := c.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	data, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// jsonOf encodes v compactly.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// handSeed writes an IPC file with the given schema and columns (any
// schema, so tests can build v0 and corrupt seeds).
func handSeed(t testing.TB, mem memory.Allocator, schema *arrow.Schema, cols ...arrow.Array) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) > 0 {
		rec := array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cols {
		c.Release()
	}
	return buf.Bytes()
}

// wantRule asserts err wraps ErrInvalidSeed (or ErrUnsupportedVersion)
// and names rule.
func wantRule(t *testing.T, err error, rule string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want rule %s", rule)
	}
	if !errors.Is(err, ErrInvalidSeed) && !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("error %v does not wrap ErrInvalidSeed", err)
	}
	if !strings.Contains(err.Error(), rule+":") && !strings.Contains(err.Error(), rule+"/") {
		t.Fatalf("error %q does not name rule %s", err, rule)
	}
}
