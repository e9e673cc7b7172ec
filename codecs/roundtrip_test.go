package codecs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// ctx selects the tree walker a round-trip case goes through.
type ctx int

const (
	ctxMini ctx = iota
	ctxBlock
	ctxFZFixed
	ctxFZVar
)

// rtCase is one encode→decode round trip: enc and the encoded buffers,
// decoded by the walker for ctx, must give want.
type rtCase struct {
	name string
	ctx  ctx
	enc  *pb.CompressiveEncoding
	bufs [][]byte // mini-block buffers; bufs[0] for block / full-zip fixed
	in   Block    // full-zip variable input
	want Block
	desc string // expected Describe output (optional)
}

// roundTrip is the single shared helper every codec round trip goes through.
func roundTrip(t *testing.T, c rtCase) {
	t.Helper()
	var got Block
	var err error
	switch c.ctx {
	case ctxMini:
		got, err = DecodeMiniBlock(c.enc, c.bufs, c.want.NumValues)
	case ctxBlock:
		got, err = DecodeBlock(c.enc, c.bufs[0], c.want.NumValues)
	case ctxFZFixed:
		got, err = DecodeFullZipFixed(c.enc, c.bufs[0], c.want.NumValues)
	case ctxFZVar:
		got, err = DecodeFullZipVariable(c.enc, c.in)
	}
	if err != nil {
		t.Fatalf("%s: decode %s: %v", c.name, Describe(c.enc), err)
	}
	if err := sameBlock(got, c.want); err != nil {
		t.Fatalf("%s: %s: %v", c.name, Describe(c.enc), err)
	}
	if c.desc != "" && Describe(c.enc) != c.desc {
		t.Errorf("%s: Describe = %q, want %q", c.name, Describe(c.enc), c.desc)
	}
}

func fixed(data []byte, bits, n uint64) Block {
	return Block{Kind: KindFixed, NumValues: n, BitsPerValue: bits, Data: data}
}

func TestRoundTrips(t *testing.T) {
	var cases []rtCase
	for _, gen := range []func(*rand.Rand) []rtCase{
		bitpackCases, variableCases, fsstCases, rleCases, bssCases, generalCases, structureCases,
	} {
		cases = append(cases, gen(rand.New(rand.NewPCG(7, 8)))...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { roundTrip(t, c) })
	}
}

func bitpackCases(r *rand.Rand) []rtCase {
	var out []rtCase
	for _, tb := range []int{8, 16, 32, 64} {
		for _, n := range []int{1, 100, 1024, 1500, 3000} {
			w := r.IntN(tb + 1)
			raw := randWords(r, n, tb, w)
			in := must(EncodeInlineBitpacking(nil, raw, tb, uint64(n)))
			want := fixed(raw, uint64(tb), uint64(n))
			out = append(out,
				rtCase{name: "inline_mini", ctx: ctxMini, enc: inlineEnc(uint64(tb)), bufs: [][]byte{in}, want: want},
				rtCase{name: "inline_block", ctx: ctxBlock, enc: inlineEnc(uint64(tb)), bufs: [][]byte{in}, want: want})
			ool := must(EncodeOutOfLineBitpacking(nil, raw, tb, w, uint64(n)))
			out = append(out, rtCase{name: "ool", ctx: ctxBlock, enc: oolEnc(uint64(tb), uint64(w)), bufs: [][]byte{ool}, want: want})
		}
	}
	// Both out-of-line tail forms: narrow width ⇒ packed tail, wide ⇒ raw tail.
	for _, w := range []int{1, 15} {
		raw := randWords(r, 1024+1000, 16, w)
		ool := must(EncodeOutOfLineBitpacking(nil, raw, 16, w, 2024))
		out = append(out, rtCase{name: "ool_tail", ctx: ctxBlock, enc: oolEnc(16, uint64(w)), bufs: [][]byte{ool}, want: fixed(raw, 16, 2024),
			desc: "out_of_line_bitpacking(16, values=flat(" + itoa(w) + "))"})
	}
	out[0].desc = "inline_bitpacking(8)"
	return out
}

func variableCases(r *rand.Rand) []rtCase {
	vals := strs("", "a", "hello", "", "lance go", strings.Repeat("x", 300))
	b32 := NewVariableBlock(vals)
	b64 := to64(b32)
	chunk32 := must(EncodeVariableChunk(nil, b32))
	chunk64 := must(EncodeVariableChunk(nil, b64))
	blk32 := must(EncodeVariableBlock(nil, b32))
	blk64 := must(EncodeVariableBlock(nil, b64))
	return []rtCase{
		{name: "var_chunk32", ctx: ctxMini, enc: varEnc(32), bufs: [][]byte{chunk32}, want: b32, desc: "variable(offsets=flat(32))"},
		{name: "var_chunk64", ctx: ctxMini, enc: varEnc(64), bufs: [][]byte{chunk64}, want: b64},
		{name: "var_block32", ctx: ctxBlock, enc: varEnc(32), bufs: [][]byte{blk32}, want: b32},
		{name: "var_block64", ctx: ctxBlock, enc: varEnc(64), bufs: [][]byte{blk64}, want: b64},
		{name: "var_perval", ctx: ctxFZVar, enc: varEnc(32), in: b32, want: b32},
		{name: "var_empty", ctx: ctxMini, enc: varEnc(32), bufs: [][]byte{must(EncodeVariableChunk(nil, NewVariableBlock(nil)))}, want: NewVariableBlock(nil)},
	}
}

// to64 converts a 32-bit-offset block to 64-bit offsets.
func to64(b Block) Block {
	o := Block{Kind: KindVariable, NumValues: b.NumValues, OffsetBits: 64, Data: b.Data}
	for i := uint64(0); i <= b.NumValues; i++ {
		o.Offsets = appendUint(o.Offsets, offsetAt(b, i), 64)
	}
	return o
}

func fsstCases(r *rand.Rand) []rtCase {
	var out []rtCase
	vals := strs("the lance thing", "", "going \x00 nowhere\xff", "abcdefghabcdefg", "é")
	plain := NewVariableBlock(vals)
	for _, on := range []bool{true, false} {
		tab := testTable(on)
		var comp [][]byte
		for _, v := range vals {
			comp = append(comp, tab.Compress(nil, v))
		}
		cb := NewVariableBlock(comp)
		st := tab.Serialize()
		out = append(out,
			rtCase{name: "fsst_mini", ctx: ctxMini, enc: fsstEnc(st, varEnc(32)), bufs: [][]byte{must(EncodeVariableChunk(nil, cb))}, want: plain,
				desc: "fsst(symtab=2312B, variable(offsets=flat(32)))"},
			rtCase{name: "fsst_mini64", ctx: ctxMini, enc: fsstEnc(st, varEnc(64)), bufs: [][]byte{must(EncodeVariableChunk(nil, to64(cb)))}, want: to64(plain)},
			rtCase{name: "fsst_perval", ctx: ctxFZVar, enc: fsstEnc(st, varEnc(32)), in: cb, want: plain})
	}
	return out
}

func rleCases(r *rand.Rand) []rtCase {
	var out []rtCase
	for _, vb := range []int{8, 16, 32, 64, 128} {
		for _, lb := range []int{8, 16, 32} {
			n := 700 + r.IntN(600)
			var raw []byte
			for len(raw) < n*vb/8 {
				v := randWords(r, 1, 8, 8)
				run := 1 + r.IntN(400)
				raw = append(raw, bytes.Repeat(bytes.Repeat(v, vb/8), run)...)
			}
			raw = raw[:n*vb/8]
			vals, lens := must2(EncodeRLE(nil, nil, raw, vb, lb, uint64(n)))
			want := fixed(raw, uint64(vb), uint64(n))
			out = append(out, rtCase{name: "rle_mini", ctx: ctxMini, enc: rleEnc(uint64(vb), uint64(lb)), bufs: [][]byte{vals, lens}, want: want})
			blk := must(EncodeRLEBlock(nil, raw, vb, lb, uint64(n)))
			out = append(out, rtCase{name: "rle_block", ctx: ctxBlock, enc: rleEnc(uint64(vb), uint64(lb)), bufs: [][]byte{blk}, want: want})
		}
	}
	out[0].desc = "rle(values=flat(8), runs=flat(8))"
	return out
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

func bssCases(r *rand.Rand) []rtCase {
	var out []rtCase
	for _, w := range []int{32, 64} {
		n := 1 + r.IntN(1024*32/w)
		raw := randWords(r, n, w, w)
		enc := must(EncodeByteStreamSplit(nil, raw, w, uint64(n)))
		out = append(out, rtCase{name: "bss", ctx: ctxMini, enc: bssEnc(uint64(w)), bufs: [][]byte{enc}, want: fixed(raw, uint64(w), uint64(n))})
	}
	out[1].desc = "byte_stream_split(flat(64))"
	return out
}

func generalCases(r *rand.Rand) []rtCase {
	var out []rtCase
	raw := bytes.Repeat([]byte("lance columnar "), 500)
	rnd := randWords(r, 3000, 8, 8)
	vals := strs(string(raw[:3000]), "", "short", string(rnd))
	vb := NewVariableBlock(vals)
	for _, s := range []pb.CompressionScheme{lz4S, zstdS} {
		comp := func(b []byte) []byte {
			if s == lz4S {
				return must(CompressLZ4(nil, b))
			}
			return must(CompressZstd(nil, b, 0))
		}
		out = append(out,
			rtCase{name: "gen_flat_mini", ctx: ctxMini, enc: generalEnc(s, flatEnc(8)), bufs: [][]byte{comp(raw)}, want: fixed(raw, 8, uint64(len(raw)))},
			rtCase{name: "gen_rnd_mini", ctx: ctxMini, enc: generalEnc(s, flatEnc(8)), bufs: [][]byte{comp(rnd)}, want: fixed(rnd, 8, uint64(len(rnd)))},
			rtCase{name: "gen_var_mini", ctx: ctxMini, enc: generalEnc(s, varEnc(32)), bufs: [][]byte{comp(must(EncodeVariableChunk(nil, vb)))}, want: vb},
			rtCase{name: "gen_var_block", ctx: ctxBlock, enc: generalEnc(s, varEnc(32)), bufs: [][]byte{comp(must(EncodeVariableBlock(nil, vb)))}, want: vb},
			rtCase{name: "gen_flat_block", ctx: ctxBlock, enc: generalEnc(s, flatEnc(64)), bufs: [][]byte{comp(raw[:4000])}, want: fixed(raw[:4000], 64, 500)})
		var per [][]byte
		for _, v := range vals {
			per = append(per, comp(v))
		}
		out = append(out, rtCase{name: "gen_perval", ctx: ctxFZVar, enc: generalEnc(s, varEnc(32)), in: NewVariableBlock(per), want: vb})
		// RLE inside General: only buffer 0 is compressed.
		rv, rl := must2(EncodeRLE(nil, nil, raw, 8, 8, uint64(len(raw))))
		out = append(out, rtCase{name: "gen_rle_mini", ctx: ctxMini, enc: generalEnc(s, rleEnc(8, 8)), bufs: [][]byte{comp(rv), rl}, want: fixed(raw, 8, uint64(len(raw)))})
	}
	// Bare zstd frame (no size prefix).
	bare := must(CompressZstd(nil, raw, 3))[8:]
	out = append(out, rtCase{name: "zstd_bare", ctx: ctxBlock, enc: generalEnc(zstdS, flatEnc(8)), bufs: [][]byte{bare}, want: fixed(raw, 8, uint64(len(raw))),
		desc: "general(zstd, flat(8))"})
	return out
}

func structureCases(r *rand.Rand) []rtCase {
	var out []rtCase
	// Flat incl. booleans.
	bools := []byte{0b10110101, 0b1}
	out = append(out, rtCase{name: "flat_bool", ctx: ctxMini, enc: flatEnc(1), bufs: [][]byte{bools}, want: fixed(bools, 1, 9), desc: "flat(1)"},
		rtCase{name: "flat_fz", ctx: ctxFZFixed, enc: flatEnc(32), bufs: [][]byte{u32s(1, 2, 3)}, want: fixed(u32s(1, 2, 3), 32, 3)},
		rtCase{name: "const", ctx: ctxBlock, enc: constEnc(u32s(42)), bufs: [][]byte{nil}, want: fixed(u32s(42, 42, 42), 32, 3), desc: "constant(4B)"},
		rtCase{name: "const_mini", ctx: ctxMini, enc: constEnc([]byte{1}), bufs: nil, want: fixed([]byte{1, 1}, 8, 2)},
		rtCase{name: "const_null", ctx: ctxFZFixed, enc: constEnc(nil), bufs: [][]byte{nil}, want: Block{Kind: KindFixed, NumValues: 5, AllNull: true}, desc: "constant(null)"})
	// Packed struct: rows of (u32, u8, u16).
	rows := []byte{1, 0, 0, 0, 9, 5, 0, 2, 0, 0, 0, 8, 6, 0}
	ps := Block{Kind: KindStruct, NumValues: 2, Children: []Block{fixed(u32s(1, 2), 32, 2), fixed([]byte{9, 8}, 8, 2), fixed([]byte{5, 0, 6, 0}, 16, 2)}}
	out = append(out, rtCase{name: "packed", ctx: ctxMini, enc: packedEnc(32, 8, 16), bufs: [][]byte{rows}, want: ps, desc: "packed_struct([32,8,16], flat(56))"})
	out = append(out, fslCases()...)
	out = append(out, vpsCases()...)
	return out
}

func fslCases() []rtCase {
	// 3 rows of FSL<FSL<u8,2>,3>, outer validity per list item, inner per byte.
	items := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	outerV := []byte{0b10_111_011, 0b1}      // 9 bits
	innerV := []byte{0xFF, 0x0F, 0xF0, 0b01} // 18 bits (value only)
	enc := fslEnc(3, true, fslEnc(2, true, flatEnc(8)))
	want := fixed(items, 8, 3)
	want.FSL = []FSLLayer{{Dimension: 3, Validity: outerV}, {Dimension: 2, Validity: innerV[:3]}}
	want.FSL[1].Validity = []byte{0xFF, 0x0F, 0b01}
	// Per-row zipped form: outer ⌈3/8⌉=1 byte, inner ⌈6/8⌉=1 byte, 6 items.
	var zipped []byte
	for r := 0; r < 3; r++ {
		zipped = append(zipped, bitsAt(want.FSL[0].Validity, r*3, 3), bitsAt(want.FSL[1].Validity, r*6, 6))
		zipped = append(zipped, items[r*6:r*6+6]...)
	}
	plain := fixed(items, 8, 3)
	plain.FSL = []FSLLayer{{Dimension: 6}}
	return []rtCase{
		{name: "fsl_mini", ctx: ctxMini, enc: enc, bufs: [][]byte{want.FSL[0].Validity, want.FSL[1].Validity, items}, want: want,
			desc: "fixed_size_list(3, validity, fixed_size_list(2, validity, flat(8)))"},
		{name: "fsl_fz", ctx: ctxFZFixed, enc: enc, bufs: [][]byte{zipped}, want: want},
		{name: "fsl_block", ctx: ctxBlock, enc: enc, bufs: [][]byte{zipped}, want: want},
		{name: "fsl_plain", ctx: ctxMini, enc: fslEnc(6, false, flatEnc(8)), bufs: [][]byte{items}, want: plain},
		{name: "fsl_plain_fz", ctx: ctxFZFixed, enc: fslEnc(6, false, flatEnc(8)), bufs: [][]byte{items}, want: plain},
	}
}

// bitsAt extracts n ≤ 8 bits of bm starting at bit off.
func bitsAt(bm []byte, off, n int) byte {
	var v byte
	for i := 0; i < n; i++ {
		if bm[(off+i)/8]>>((off+i)%8)&1 != 0 {
			v |= 1 << i
		}
	}
	return v
}

func vpsCases() []rtCase {
	tab := testTable(true)
	names := strs("the lance", "", "going")
	var rows [][]byte
	for i, n := range names {
		var row []byte
		row = append(row, u32s(uint32(i*7))...)
		comp := tab.Compress(nil, n)
		row = append(row, u32s(uint32(len(comp)))...)
		row = append(row, comp...)
		row = appendUint(row, uint64(len(n)), 64)
		row = append(row, n...)
		rows = append(rows, row)
	}
	enc := vpsEnc(vpsFixed(32, flatEnc(32)), vpsVar(32, fsstEnc(tab.Serialize(), varEnc(32))), vpsVar(64, varEnc(64)))
	want := Block{Kind: KindStruct, NumValues: 3, Children: []Block{fixed(u32s(0, 7, 14), 32, 3), NewVariableBlock(names), to64(NewVariableBlock(names))}}
	return []rtCase{{name: "vps", ctx: ctxFZVar, enc: enc, in: NewVariableBlock(rows), want: want,
		desc: "variable_packed_struct(flat(32), len32:fsst(symtab=2312B, variable(offsets=flat(32))), len64:variable(offsets=flat(64)))"}}
}
