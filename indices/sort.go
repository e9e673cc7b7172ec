package indices

// Sorting a column for the scalar index builders: the order of BTREE
// pages and BITMAP keys is Lance's (NULLs first, then ascending; floats by
// IEEE total order, so NaN after every number and -0 before +0; strings
// and binary byte-wise; false before true), ties in input order (the
// builders feed rows in row-address order, as Lance's sorted scan leaves
// them).

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// keyed is one non-null row with a fixed-width sort key.
type keyed struct {
	key uint64
	row int32
}

// sortOrder returns the rows of a (fewer than 2^31) in index order and
// how many leading rows are NULL.
func sortOrder(a arrow.Array) (order []int32, nulls int, err error) {
	n := a.Len()
	if n > math.MaxInt32 {
		return nil, 0, fmt.Errorf("%w: %d rows in one index build", ErrUnsupported, n)
	}
	order = make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			order = append(order, int32(i))
		}
	}
	nulls = len(order)
	if keyOf, ok, err := fixedKeys(a); err != nil {
		return nil, 0, err
	} else if ok {
		ks, fast := typedKeys(a)
		if !fast {
			ks = make([]keyed, 0, n-nulls)
			for i := 0; i < n; i++ {
				if a.IsValid(i) {
					ks = append(ks, keyed{keyOf(i), int32(i)})
				}
			}
		}
		ks = radixSort(ks)
		for _, k := range ks {
			order = append(order, k.row)
		}
		return order, nulls, nil
	}
	val, ok := bytesValues(a)
	if !ok {
		return nil, 0, fmt.Errorf("%w: scalar index on a %s column", ErrUnsupported, a.DataType())
	}
	// strings: radix sort by their first 8 bytes (big-endian, zero
	// padded), then order each run of equal prefixes by the whole bytes
	ks := make([]keyed, 0, n-nulls)
	for i := 0; i < n; i++ {
		if a.IsValid(i) {
			ks = append(ks, keyed{prefixKey(val(i)), int32(i)})
		}
	}
	ks = radixSort(ks)
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		for hi < len(ks) && ks[hi].key == ks[lo].key {
			hi++
		}
		if hi-lo > 1 && !sameShortLength(ks[lo:hi], val) {
			slices.SortStableFunc(ks[lo:hi], func(x, y keyed) int { return bytes.Compare(val(int(x.row)), val(int(y.row))) })
		}
		lo = hi
	}
	for _, k := range ks {
		order = append(order, k.row)
	}
	return order, nulls, nil
}

// typedKeys makes the sort keys of the non-null rows of the common
// fixed-width arrays straight from their value buffers (what fixedKeys
// does a call per row); false for other types.
func typedKeys(a arrow.Array) ([]keyed, bool) {
	const signBit = 1 << 63
	switch a := a.(type) {
	case *array.Int64:
		return appendKeys(a, a.Int64Values(), func(v int64) uint64 { return uint64(v) ^ signBit }), true
	case *array.Int32:
		return appendKeys(a, a.Int32Values(), func(v int32) uint64 { return uint64(int64(v)) ^ signBit }), true
	case *array.Uint64:
		return appendKeys(a, a.Uint64Values(), func(v uint64) uint64 { return v }), true
	case *array.Uint32:
		return appendKeys(a, a.Uint32Values(), func(v uint32) uint64 { return uint64(v) }), true
	case *array.Float64:
		return appendKeys(a, a.Float64Values(), totalOrderKey), true
	case *array.Float32:
		return appendKeys(a, a.Float32Values(), func(v float32) uint64 { return totalOrderKey(float64(v)) }), true
	case *array.Timestamp:
		return appendKeys(a, a.TimestampValues(), func(v arrow.Timestamp) uint64 { return uint64(v) ^ signBit }), true
	case *array.Date32:
		return appendKeys(a, a.Date32Values(), func(v arrow.Date32) uint64 { return uint64(int64(v)) ^ signBit }), true
	}
	return nil, false
}

// appendKeys keys the non-null values of vals (a's values) by key.
func appendKeys[T any](a arrow.Array, vals []T, key func(T) uint64) []keyed {
	ks := make([]keyed, 0, len(vals)-a.NullN())
	if a.NullN() == 0 {
		for i, v := range vals {
			ks = append(ks, keyed{key(v), int32(i)})
		}
		return ks
	}
	for i, v := range vals {
		if a.IsValid(i) {
			ks = append(ks, keyed{key(v), int32(i)})
		}
	}
	return ks
}

// prefixKey is the first 8 bytes of b as a big-endian number, zero
// padded: its order is the byte-wise order of the prefixes.
func prefixKey(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var p [8]byte
	copy(p[:], b)
	return binary.BigEndian.Uint64(p[:])
}

// sameShortLength reports whether the values of a run of equal prefix
// keys all have one length of at most 8 bytes: then they are equal and
// the run keeps its (row) order.
func sameShortLength(run []keyed, val func(int) []byte) bool {
	l := len(val(int(run[0].row)))
	if l > 8 {
		return false
	}
	for _, k := range run[1:] {
		if len(val(int(k.row))) != l {
			return false
		}
	}
	return true
}

// radixSort sorts ks by key, stably (ties keep their order: rows
// ascending as the callers build them), with an LSD radix sort of 8-bit
// digits that skips the digits every key shares. It may return a
// different slice than ks.
func radixSort(ks []keyed) []keyed {
	if len(ks) < 256 {
		slices.SortStableFunc(ks, func(x, y keyed) int { return cmp.Compare(x.key, y.key) })
		return ks
	}
	var diff uint64
	for _, k := range ks[1:] {
		diff |= k.key ^ ks[0].key
	}
	buf := make([]keyed, len(ks))
	for shift := uint(0); shift < 64; shift += 8 {
		if diff>>shift&0xff == 0 {
			continue
		}
		var count [256]int
		for _, k := range ks {
			count[k.key>>shift&0xff]++
		}
		pos := 0
		for d := range count {
			count[d], pos = pos, pos+count[d]
		}
		for _, k := range ks {
			d := k.key >> shift & 0xff
			buf[count[d]] = k
			count[d]++
		}
		ks, buf = buf, ks
	}
	return ks
}

// runStarts returns the positions in order (as sortOrder left it, nulls
// leading rows NULL) where a run of equal values starts: the NULL run
// first, when there is one. Floats are equal when their bits are (NaN
// equals a NaN of the same bits, -0 differs from +0), as Lance's bitmap
// keys are.
func runStarts(a arrow.Array, order []int32, nulls int) []int {
	var starts []int
	if nulls > 0 {
		starts = append(starts, 0)
	}
	keyOf, fixed, _ := fixedKeys(a)
	val, _ := bytesValues(a)
	for p := nulls; p < len(order); p++ {
		if p == nulls {
			starts = append(starts, p)
			continue
		}
		i, j := int(order[p-1]), int(order[p])
		if fixed && keyOf(i) != keyOf(j) || !fixed && !bytes.Equal(val(i), val(j)) {
			starts = append(starts, p)
		}
	}
	return starts
}

// fixedKeys returns, for fixed-width types, an order-preserving uint64
// key of each row's value.
func fixedKeys(a arrow.Array) (func(int) uint64, bool, error) {
	const signBit = 1 << 63
	switch a := a.(type) {
	case *array.Int8:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Int16:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Int32:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Int64:
		return func(i int) uint64 { return uint64(a.Value(i)) ^ signBit }, true, nil
	case *array.Date32:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Date64:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Timestamp:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Time32:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Time64:
		return func(i int) uint64 { return uint64(int64(a.Value(i))) ^ signBit }, true, nil
	case *array.Uint8:
		return func(i int) uint64 { return uint64(a.Value(i)) }, true, nil
	case *array.Uint16:
		return func(i int) uint64 { return uint64(a.Value(i)) }, true, nil
	case *array.Uint32:
		return func(i int) uint64 { return uint64(a.Value(i)) }, true, nil
	case *array.Uint64:
		return func(i int) uint64 { return a.Value(i) }, true, nil
	case *array.Float32:
		return func(i int) uint64 { return totalOrderKey(float64(a.Value(i))) }, true, nil
	case *array.Float64:
		return func(i int) uint64 { return totalOrderKey(a.Value(i)) }, true, nil
	case *array.Boolean:
		return func(i int) uint64 {
			if a.Value(i) {
				return 1
			}
			return 0
		}, true, nil
	}
	return nil, false, nil
}

// totalOrderKey maps a float64 to a uint64 whose unsigned order is IEEE
// 754 totalOrder (float32 values widen exactly, NaN payloads aside).
func totalOrderKey(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// bytesValues returns the value accessor of string and binary arrays.
func bytesValues(a arrow.Array) (func(int) []byte, bool) {
	switch a := a.(type) {
	case *array.String:
		return func(i int) []byte { return stringBytes(a.Value(i)) }, true
	case *array.LargeString:
		return func(i int) []byte { return stringBytes(a.Value(i)) }, true
	case *array.Binary:
		return a.Value, true
	case *array.LargeBinary:
		return a.Value, true
	}
	return nil, false
}

// stringBytes views s's bytes without copying (never written through).
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
