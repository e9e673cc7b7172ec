package codecs

import (
	"encoding/binary"
	"errors"
	"math/big"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// One fuzz target per generic sequence codec of 2.3 (the positions and
// counts of sparse pages, the indices of indexed values, mini-block
// offsets), each against an oracle: FuzzSequence mutates descriptors in
// general, these keep the codec and vary its parameters and payload.

func seqWidth(wide bool) int {
	if wide {
		return 64
	}
	return 32
}

// words reads the little-endian words of b (a whole number of them).
func words(b []byte, width int) []uint64 {
	out := make([]uint64, 0, len(b)/(width/8))
	for i := 0; i+width/8 <= len(b); i += width / 8 {
		out = append(out, readWord(b[i:], width))
	}
	return out
}

func putWords(vs []uint64, width int) []byte {
	var out []byte
	for _, v := range vs {
		if width == 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		} else {
			out = binary.LittleEndian.AppendUint64(out, v)
		}
	}
	return out
}

// checkDecoded fails unless err is nil exactly when want is, and got is want.
func checkDecoded(t *testing.T, got []uint64, err error, want []uint64, ok bool) {
	t.Helper()
	if ok != (err == nil) {
		t.Fatalf("err = %v, oracle says ok = %v", err, ok)
	}
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("error not classified: %v", err)
		}
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("value %d = %d, want %d", i, got[i], want[i])
		}
	}
}

// FuzzSequenceRange: start + step·i, refused for step 0 or overflow.
func FuzzSequenceRange(f *testing.F) {
	f.Add(false, uint64(396), uint64(2), uint16(2))
	f.Add(true, uint64(0), uint64(4), uint16(1000))
	f.Add(false, uint64(1<<32-3), uint64(1), uint16(4))
	f.Fuzz(func(t *testing.T, wide bool, start, step uint64, n uint16) {
		width := seqWidth(wide)
		got, err := DecodeSequence(nil, rangeEnc(uint64(width), start, step), width, nil, uint64(n))
		limit := new(big.Int).SetUint64(maxOf(width))
		var want []uint64
		ok := step > 0 // refused even for an empty range
		for i := range uint64(n) {
			v := new(big.Int).Mul(new(big.Int).SetUint64(step), new(big.Int).SetUint64(i))
			v.Add(v, new(big.Int).SetUint64(start))
			if v.Cmp(limit) > 0 {
				ok = false
				break
			}
			want = append(want, v.Uint64())
		}
		checkDecoded(t, got, err, want, ok)
	})
}

// FuzzSequenceDelta: base then checked prefix sums of Flat deltas.
func FuzzSequenceDelta(f *testing.F) {
	f.Add(false, uint64(5), u64s(1, 3, 0)[:12], uint16(4))
	f.Add(true, uint64(0), u64s(1, 1<<63, 1<<63), uint16(4))
	f.Fuzz(func(t *testing.T, wide bool, base uint64, deltas []byte, n uint16) {
		width := seqWidth(wide)
		enc := deltaEnc(uint64(width), base, flatEnc(uint64(width)))
		got, err := DecodeSequence(nil, enc, width, deltas, uint64(n))
		d := words(deltas, width)
		ok := base <= maxOf(width) && (n == 0 && len(deltas) == 0 ||
			n > 0 && len(d) == int(n)-1 && len(deltas) == len(d)*(width/8))
		var want []uint64
		if ok && n > 0 {
			sum, limit := new(big.Int).SetUint64(base), new(big.Int).SetUint64(maxOf(width))
			want = append(want, base)
			for _, x := range d {
				if sum.Add(sum, new(big.Int).SetUint64(x)); sum.Cmp(limit) > 0 {
					ok = false
					break
				}
				want = append(want, sum.Uint64())
			}
		}
		checkDecoded(t, got, err, want, ok)
	})
}

// FuzzSequenceRLE: Rle(Flat values, Flat u32 runs) in the block frame
// [u64 values length][values][runs]; runs positive, summing to n.
func FuzzSequenceRLE(f *testing.F) {
	f.Add(true, u64s(7, 9), u32le(2, 1), uint16(3), false, []byte(nil))
	f.Add(false, u32le(1), u32le(0), uint16(0), false, []byte(nil))
	f.Add(true, u64s(1), u32le(5), uint16(5), true, append(u64s(99), 1, 2))
	f.Fuzz(func(t *testing.T, wide bool, values, runs []byte, n uint16, raw bool, payload []byte) {
		width := seqWidth(wide)
		enc := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
			Values: flatEnc(uint64(width)), RunLengths: flatEnc(32)}}}
		if raw { // hostile frame: no oracle, must not panic and must count
			got, err := DecodeSequence(nil, enc, width, payload, uint64(n))
			if err == nil && len(got) != int(n) {
				t.Fatalf("%d values, want %d", len(got), n)
			}
			return
		}
		frame := append(binary.LittleEndian.AppendUint64(nil, uint64(len(values))), values...)
		frame = append(frame, runs...)
		got, err := DecodeSequence(nil, enc, width, frame, uint64(n))
		v, r := words(values, width), words(runs, 32)
		ok := len(values)%(width/8) == 0 && len(runs)%4 == 0 && len(v) == len(r)
		var want []uint64
		left := uint64(n)
		for i := 0; ok && i < len(r); i++ {
			if r[i] == 0 || r[i] > left {
				ok = false
				break
			}
			left -= r[i]
			for range r[i] {
				want = append(want, v[i])
			}
		}
		checkDecoded(t, got, err, want, ok && left == 0)
	})
}

// FuzzSequenceBitpacked: out-of-line and inline bit-packing round-trip
// values of w bits; arbitrary payloads decode to n values of w bits or
// fail.
func FuzzSequenceBitpacked(f *testing.F) {
	f.Add(true, uint8(3), false, u64s(1, 5, 7, 2), []byte(nil))
	f.Add(false, uint8(6), true, u32le(63, 0, 17), []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, wide bool, w uint8, inline bool, src, hostile []byte) {
		width := seqWidth(wide)
		bits := int(w)%width + 1
		vals := words(src, width)
		for i := range vals {
			vals[i] &= 1<<bits - 1
		}
		n := uint64(len(vals))
		var enc *pb.CompressiveEncoding
		var payload []byte
		var err error
		if inline {
			enc = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{
				InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: uint64(width)}}}
			payload, err = EncodeInlineBitpacking(nil, putWords(vals, width), width, n)
		} else {
			enc = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
				OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: uint64(width), Values: flatEnc(uint64(bits))}}}
			payload, err = EncodeOutOfLineBitpacking(nil, putWords(vals, width), width, bits, n)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeSequence(nil, enc, width, payload, n)
		checkDecoded(t, got, err, vals, true)
		got, err = DecodeSequence(nil, enc, width, hostile, n) // (a raw tail may hold any value)
		if err == nil && uint64(len(got)) != n {
			t.Fatalf("hostile payload: %d values, want %d", len(got), n)
		}
	})
}

// FuzzSequenceDictionary: n u32 indices into Flat items, framed [u64
// indices length][u64 items length][indices][items].
func FuzzSequenceDictionary(f *testing.F) {
	f.Add(true, u32le(1, 0, 1), u64s(3, 7), uint8(2))
	f.Add(false, u32le(2), u32le(3, 7), uint8(2))
	f.Fuzz(func(t *testing.T, wide bool, indices, items []byte, numItems uint8) {
		width := seqWidth(wide)
		enc := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Dictionary{Dictionary: &pb.Dictionary{
			Indices: flatEnc(32), Items: flatEnc(uint64(width)), NumDictionaryItems: uint32(numItems)}}}
		n := uint64(len(indices) / 4)
		frame := dictFrame(indices, items)
		got, err := DecodeSequence(nil, enc, width, frame, n)
		idx, it := words(indices, 32), words(items, width)
		ok := len(indices)%4 == 0 && len(items) == int(numItems)*(width/8) && (numItems > 0 || n == 0)
		var want []uint64
		for _, k := range idx {
			if !ok || k >= uint64(numItems) {
				ok = false
				break
			}
			want = append(want, it[k])
		}
		checkDecoded(t, got, err, want, ok)
	})
}
