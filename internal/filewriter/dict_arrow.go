package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/lerr"
)

// encodeDictionaryLeaf writes an Arrow dictionary column as Lance does
// (the "already dictionary encoded" path of its primitive encoder): the
// dictionary values as they are (null values were moved into the keys by
// normalizeDictNulls) and the keys at the width of the declared key type.
// Dictionaries of values Lance does not keep as a dictionary (booleans,
// lists) are materialized.
func encodeDictionaryLeaf(s *shredded, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	d := s.Leaf.(*array.Dictionary)
	dict := d.Dictionary()
	v, err := gatherValues(dict, s.sc.identity(0, dict.Len()), s.sc)
	if err != nil {
		return nil, err
	}
	if v.Kind != valVariable && v.Kind != valFixed {
		return encodeMaterialized(s, d, l, cfg)
	}
	ind, err := dictKeys(s, d)
	if err != nil {
		return nil, err
	}
	order := s.sc.identity(0, dict.Len())
	// 2.3: the sparse rule (policy.go, wantSparse) weighs the dictionary's
	// values; pylance 14.0.2 writes a mostly-null dictionary column of
	// wide strings as a sparse page with chunked keys.
	if cfg.version >= format.V2_3 && wantSparse(s, v, l.params) {
		slots, err := slotRows(s, ind)
		if err != nil {
			return nil, err
		}
		inner, err := dictionaryPage(slots, v, order, ind, l.params, cfg.version)
		if err != nil {
			return nil, err
		}
		page, _, err := encodeSparseChunked(s, ind, inner)
		return page, err
	}
	return dictionaryPage(s, v, order, ind, l.params, cfg.version)
}

// encodeMaterialized writes the values a dictionary column stands for.
func encodeMaterialized(s *shredded, d *array.Dictionary, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	slots := make([]int, s.NumSlots())
	for j, i := range s.slots() {
		slots[j] = -1
		if i >= 0 && d.IsValid(i) {
			slots[j] = d.GetValueIndex(i)
		}
	}
	v, err := gatherValues(d.Dictionary(), slots, s.sc)
	if err != nil {
		return nil, err
	}
	return encodeValues(s, v, l, cfg)
}

// dictKeys gathers the keys of the entries of s at the width of d's key
// type, as stored (0 for an entry without a leaf slot). Every valid key
// must be inside the dictionary.
func dictKeys(s *shredded, d *array.Dictionary) (*values, error) {
	kt := d.DataType().(*arrow.DictionaryType).IndexType.(arrow.FixedWidthDataType)
	w := kt.BitWidth() / 8
	src, err := keyBytes(d.Data(), w)
	if err != nil {
		return nil, err
	}
	n := uint64(d.Dictionary().Len())
	ind := &values{Values: codecs.Values{Kind: valFixed, N: s.NumSlots(), Bits: 8 * w,
		Data: make([]byte, s.NumSlots()*w)}, sc: s.sc, indices: true}
	var k int64
	bad := false
	if s.Dense && !s.DenseNulls { // every entry a valid key, in order
		copy(ind.Data, src[s.DenseLo*w:(s.DenseLo+s.DenseN)*w])
		k, bad = checkKeys(ind.Data, w, isSignedKey(kt), n)
	} else {
		slots := s.slots()
		ind.Valid = validSlots(d, slots, s.sc)
		k, bad = gatherKeys(ind.Data, src, slots, ind.Valid, w, isSignedKey(kt), n)
	}
	if bad {
		return nil, fmt.Errorf("%w: dictionary key %d outside the %d values", lerr.ErrInvalidArgument, k, n)
	}
	return ind, nil
}

// gatherKeys copies the w-byte keys of src at idx into dst (entry j at
// j*w, the key under a null entry too, as Lance keeps it; entries
// without a slot stay 0) and returns the first valid key (valid nil: all
// are) outside [0, n), sign-extended when signed, with true. Loops per
// key width, no call per key: a dictionary column's keys are most of its
// write.
func gatherKeys(dst, src []byte, idx []int, valid []bool, w int, signed bool, n uint64) (int64, bool) {
	if contiguous(idx) {
		copy(dst, src[idx[0]*w:(idx[0]+len(idx))*w])
	} else {
		for j, i := range idx {
			if i >= 0 {
				copy(dst[j*w:(j+1)*w], src[i*w:(i+1)*w])
			}
		}
	}
	if valid == nil {
		return checkKeys(dst, w, signed, n)
	}
	for j, ok := range valid {
		if !ok {
			continue
		}
		if k := keyValue(dst[j*w:], w, signed); k < 0 || uint64(k) >= n {
			return k, true
		}
	}
	return 0, false
}

// checkKeys returns the first w-byte key of b (our own buffer: aligned)
// outside [0, n) with true.
func checkKeys(b []byte, w int, signed bool, n uint64) (int64, bool) {
	var bad int
	switch {
	case w == 1 && signed:
		bad = firstOutside[int8](b, n)
	case w == 1:
		bad = firstOutside[uint8](b, n)
	case w == 2 && signed:
		bad = firstOutside[int16](b, n)
	case w == 2:
		bad = firstOutside[uint16](b, n)
	case w == 4 && signed:
		bad = firstOutside[int32](b, n)
	case w == 4:
		bad = firstOutside[uint32](b, n)
	case signed:
		bad = firstOutside[int64](b, n)
	default:
		bad = firstOutside[uint64](b, n)
	}
	if bad < 0 {
		return 0, false
	}
	return keyValue(b[bad*w:], w, signed), true
}

// firstOutside returns the index of the first key of b, read as T (the
// host is little-endian, as Arrow buffers are), outside [0, n), or -1. A
// negative key, sign-extended, is above every n as a uint64.
func firstOutside[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](b []byte, n uint64) int {
	for i, k := range lebits.Words[T](b) {
		if uint64(int64(k)) >= n {
			return i
		}
	}
	return -1
}

// keyValue is the w-byte key at the start of b as an integer.
func keyValue(b []byte, w int, signed bool) int64 {
	k := lebits.Uint(b, w)
	if signed && w < 8 && k>>(8*w-1) != 0 {
		return int64(k) - int64(1)<<(8*w)
	}
	return int64(k)
}

// In Arrow a dictionary entry is null when its key is null or when the
// value its key points at is null. Lance (normalize_dict_nulls, run before
// a dictionary column's validity is taken) moves the second kind into the
// keys: the null values are dropped from the dictionary, the keys renumbered
// and every key of a null value made a null key (0 under it). A dictionary
// without null values is kept as it is, unused entries and all.

// hasDictionary reports whether t is or contains a dictionary type.
func hasDictionary(t arrow.DataType) bool {
	switch dt := t.(type) {
	case *arrow.DictionaryType:
		return true
	case arrow.NestedType:
		for _, f := range dt.Fields() {
			if hasDictionary(f.Type) {
				return true
			}
		}
	}
	return false
}

// normalizeDictNulls returns arr with the null values of every dictionary
// in it moved into the keys; changed is false (and arr returned as is)
// when no dictionary has a null value. A changed result is the caller's to
// release.
func normalizeDictNulls(arr arrow.Array, mem memory.Allocator) (out arrow.Array, changed bool, err error) {
	d, changed, err := normalizeData(arr.Data(), mem)
	if err != nil || !changed {
		return arr, false, err
	}
	defer d.Release()
	return array.MakeFromData(d), true, nil
}

// normalizeData is normalizeDictNulls on array data: a new Data (the
// caller's to release) when something changed.
func normalizeData(d arrow.ArrayData, mem memory.Allocator) (arrow.ArrayData, bool, error) {
	if d.DataType().ID() == arrow.DICTIONARY {
		return normalizeDictData(d, mem)
	}
	children := d.Children()
	if len(children) == 0 {
		return d, false, nil
	}
	out := make([]arrow.ArrayData, len(children))
	changed := false
	for i, c := range children {
		n, ok, err := normalizeData(c, mem)
		if err != nil {
			releaseChanged(out[:i], children)
			return nil, false, err
		}
		out[i], changed = n, changed || ok
	}
	if !changed {
		return d, false, nil
	}
	nd := array.NewData(d.DataType(), d.Len(), d.Buffers(), out, d.NullN(), d.Offset())
	releaseChanged(out, children)
	return nd, true, nil
}

// releaseChanged releases the entries of out that are new (not the
// original child at the same place).
func releaseChanged(out, orig []arrow.ArrayData) {
	for i, c := range out {
		if c != nil && c != orig[i] {
			c.Release()
		}
	}
}

// normalizeDictData normalizes one dictionary array's data.
func normalizeDictData(d arrow.ArrayData, mem memory.Allocator) (arrow.ArrayData, bool, error) {
	dict := array.MakeFromData(d.Dictionary())
	defer dict.Release()
	if dict.NullN() == 0 {
		return d, false, nil
	}
	newID, runs := dictRenumber(dict)
	keys, nullBits, nulls, err := renumberKeys(d, newID)
	if err != nil {
		return nil, false, err
	}
	values, err := keepRuns(dict, runs, mem)
	if err != nil {
		return nil, false, err
	}
	defer values.Release()
	bufs := []*memory.Buffer{memory.NewBufferBytes(nullBits), memory.NewBufferBytes(keys)}
	return array.NewDataWithDictionary(d.DataType(), d.Len(), bufs, nulls, 0, values.Data().(*array.Data)), true, nil
}

// dictRenumber gives each valid dictionary value its new index (-1 for a
// null value) and the runs [start, end) of valid values, in order.
func dictRenumber(dict arrow.Array) ([]int64, [][2]int) {
	newID := make([]int64, dict.Len())
	var runs [][2]int
	next := int64(0)
	for i := range newID {
		if dict.IsNull(i) {
			newID[i] = -1
			continue
		}
		newID[i] = next
		next++
		if len(runs) > 0 && runs[len(runs)-1][1] == i {
			runs[len(runs)-1][1] = i + 1
		} else {
			runs = append(runs, [2]int{i, i + 1})
		}
	}
	return newID, runs
}

// renumberKeys rewrites the keys of d through newID: a null key or a key of
// a null value becomes a null key stored as 0. A valid key outside the
// dictionary is an error.
func renumberKeys(d arrow.ArrayData, newID []int64) (keys, nullBits []byte, nulls int, err error) {
	kt := d.DataType().(*arrow.DictionaryType).IndexType.(arrow.FixedWidthDataType)
	w := kt.BitWidth() / 8
	n := d.Len()
	src, err := keyBytes(d, w)
	if err != nil {
		return nil, nil, 0, err
	}
	keys = make([]byte, n*w)
	nullBits = make([]byte, bitutil.BytesForBits(int64(n)))
	validity := keyValidity(d)
	for i := 0; i < n; i++ {
		if !validity(i) {
			nulls++
			continue
		}
		k, ok := keyAt(src, i, w, isSignedKey(kt))
		if !ok || k >= uint64(len(newID)) {
			return nil, nil, 0, fmt.Errorf("%w: dictionary key %d of entry %d outside the %d values", lerr.ErrInvalidArgument, int64(k), i, len(newID))
		}
		if id := newID[k]; id >= 0 {
			lebits.PutUint(keys[i*w:], uint64(id), w)
			bitutil.SetBit(nullBits, i)
		} else {
			nulls++
		}
	}
	return keys, nullBits, nulls, nil
}

// keyBytes returns the key buffer of d from its offset, checked to hold
// its d.Len() keys of w bytes.
func keyBytes(d arrow.ArrayData, w int) ([]byte, error) {
	bufs := d.Buffers()
	var b []byte
	if len(bufs) > 1 && bufs[1] != nil {
		b = bufs[1].Bytes()
	}
	lo, hi := d.Offset()*w, (d.Offset()+d.Len())*w
	if hi > len(b) {
		return nil, fmt.Errorf("%w: dictionary keys buffer of %d bytes for %d keys", lerr.ErrInvalidArgument, len(b), d.Len())
	}
	return b[lo:hi], nil
}

// keyValidity reports whether key i of d (from its offset) is valid.
func keyValidity(d arrow.ArrayData) func(int) bool {
	bufs := d.Buffers()
	if d.NullN() == 0 || len(bufs) == 0 || bufs[0] == nil {
		return func(int) bool { return d.NullN() == 0 }
	}
	bits, off := bufs[0].Bytes(), d.Offset()
	return func(i int) bool { return bitutil.BitIsSet(bits, off+i) }
}

// keyAt reads key i of w bytes; ok is false for a negative signed key.
func keyAt(src []byte, i, w int, signed bool) (uint64, bool) {
	k := lebits.Uint(src[i*w:], w)
	if signed && w < 8 && k>>(8*w-1) != 0 {
		return k, false
	}
	if signed && w == 8 && int64(k) < 0 {
		return k, false
	}
	return k, true
}

// isSignedKey reports whether a dictionary index type is signed.
func isSignedKey(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

// keepRuns concatenates the runs of dict (its valid values).
func keepRuns(dict arrow.Array, runs [][2]int, mem memory.Allocator) (arrow.Array, error) {
	if len(runs) == 0 {
		return array.MakeArrayOfNull(mem, dict.DataType(), 0), nil
	}
	parts := make([]arrow.Array, len(runs))
	for i, r := range runs {
		parts[i] = array.NewSlice(dict, int64(r[0]), int64(r[1]))
	}
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	return array.Concatenate(parts, mem)
}
