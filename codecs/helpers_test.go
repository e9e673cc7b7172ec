package codecs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// Encoding-tree constructors used by the tests.

func flatEnc(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: bits}}}
}

func varEnc(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: flatEnc(bits)}}}
}

func inlineEnc(t uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: t}}}
}

func oolEnc(t, w uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: t, Values: flatEnc(w)}}}
}

func fsstEnc(tab []byte, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Fsst{Fsst: &pb.Fsst{SymbolTable: tab, Values: inner}}}
}

func rleEnc(vb, lb uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{Values: flatEnc(vb), RunLengths: flatEnc(lb)}}}
}

func bssEnc(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_ByteStreamSplit{ByteStreamSplit: &pb.ByteStreamSplit{Values: flatEnc(bits)}}}
}

func generalEnc(s pb.CompressionScheme, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_General{General: &pb.General{Compression: &pb.BufferCompression{Scheme: s}, Values: inner}}}
}

func fslEnc(dim uint64, validity bool, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{FixedSizeList: &pb.FixedSizeList{ItemsPerValue: dim, HasValidity: validity, Values: inner}}}
}

func packedEnc(widths ...uint64) *pb.CompressiveEncoding {
	var sum uint64
	for _, w := range widths {
		sum += w
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_PackedStruct{PackedStruct: &pb.PackedStruct{BitsPerValue: widths, Values: flatEnc(sum)}}}
}

func constEnc(v []byte) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{Value: v}}}
}

func vpsFixed(bits uint64, enc *pb.CompressiveEncoding) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: enc, Layout: &pb.VariablePackedStruct_FieldEncoding_BitsPerValue{BitsPerValue: bits}}
}

func vpsVar(bits uint64, enc *pb.CompressiveEncoding) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: enc, Layout: &pb.VariablePackedStruct_FieldEncoding_BitsPerLength{BitsPerLength: bits}}
}

func vpsEnc(fields ...*pb.VariablePackedStruct_FieldEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_VariablePackedStruct{VariablePackedStruct: &pb.VariablePackedStruct{Fields: fields}}}
}

const (
	lz4S  = pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	zstdS = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
)

// Data generators.

func randWords(r *rand.Rand, n, t, w int) []byte {
	out := make([]byte, 0, n*t/8)
	for i := 0; i < n; i++ {
		v := r.Uint64()
		if w < 64 {
			v &= 1<<w - 1
		}
		out = appendUint(out, v, t)
	}
	return out
}

func u32s(vs ...uint32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	return out
}

func strs(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// testTable is a small FSST table with a few multi-byte symbols.
func testTable(compressed bool) *FSSTTable {
	t := &FSSTTable{Compressed: compressed}
	if !compressed {
		return t
	}
	for _, s := range []string{"the ", "lance", "ing", "e", "\x00", "abcdefgh", "go"} {
		var b [8]byte
		copy(b[:], s)
		t.Symbols[t.NumSymbols] = binary.LittleEndian.Uint64(b[:])
		t.Lens[t.NumSymbols] = uint8(len(s))
		t.NumSymbols++
	}
	return t
}

// values lists the values of a variable block.
func values(b Block) [][]byte {
	out := make([][]byte, b.NumValues)
	for i := range out {
		out[i] = valueAt(b, uint64(i))
	}
	return out
}

// sameBlock compares two blocks by content (offsets rebased).
func sameBlock(got, want Block) error {
	if got.Kind != want.Kind || got.NumValues != want.NumValues || got.AllNull != want.AllNull {
		return fmt.Errorf("kind/n/allnull = %d/%d/%v, want %d/%d/%v", got.Kind, got.NumValues, got.AllNull, want.Kind, want.NumValues, want.AllNull)
	}
	switch got.Kind {
	case KindFixed:
		if got.BitsPerValue != want.BitsPerValue || !bytes.Equal(got.Data, want.Data) {
			return fmt.Errorf("fixed bits %d data %x, want bits %d data %x", got.BitsPerValue, trunc(got.Data), want.BitsPerValue, trunc(want.Data))
		}
		if len(got.FSL) != len(want.FSL) {
			return fmt.Errorf("fsl layers %d, want %d", len(got.FSL), len(want.FSL))
		}
		for i := range got.FSL {
			if got.FSL[i].Dimension != want.FSL[i].Dimension || !bytes.Equal(got.FSL[i].Validity, want.FSL[i].Validity) {
				return fmt.Errorf("fsl layer %d = %+v, want %+v", i, got.FSL[i], want.FSL[i])
			}
		}
	case KindVariable:
		if err := checkVariable("test", got); err != nil {
			return err
		}
		g, w := values(got), values(want)
		for i := range g {
			if !bytes.Equal(g[i], w[i]) {
				return fmt.Errorf("value %d = %q, want %q", i, g[i], w[i])
			}
		}
	case KindStruct:
		if len(got.Children) != len(want.Children) {
			return fmt.Errorf("children %d, want %d", len(got.Children), len(want.Children))
		}
		for i := range got.Children {
			if err := sameBlock(got.Children[i], want.Children[i]); err != nil {
				return fmt.Errorf("child %d: %w", i, err)
			}
		}
	}
	return nil
}

func trunc(b []byte) []byte {
	if len(b) > 48 {
		return b[:48]
	}
	return b
}

// wantCorrupt asserts err wraps ErrCorrupt (or ErrUnsupported when unsup).
func wantErr(t *testing.T, err error, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
}
