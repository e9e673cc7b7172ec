package filewriter

import (
	"fmt"
	"math/bits"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/lerr"
)

// encodeFullZip writes a full-zip page: per level entry a control word
// (rep << bits_def | def) followed by the value bytes of visible entries.
func encodeFullZip(s *shredded, v *values, p encodingParams, ver format.Version) (*encodedPage, error) {
	if v.Kind == valFSL && v.Bits%8 != 0 {
		return nil, fmt.Errorf("%w: full-zip pages of fixed-size lists of booleans are not written (their items are bit-packed in mini-block pages)", lerr.ErrUnsupportedType)
	}
	bitsRep, bitsDef := bits.Len16(maxLevel(s.Rep)), bits.Len16(maxLevel(s.Def))
	cw := controlWordBytes(bitsRep + bitsDef)
	l := &pb.FullZipLayout{BitsRep: uint32(bitsRep), BitsDef: uint32(bitsDef), NumItems: uint32(s.NumItems()),
		NumVisibleItems: uint32(v.N), Layers: s.Layers}
	var valueAt func(j int, dst []byte) []byte
	size := s.NumItems() * cw // bytes of the zipped data, when known
	switch v.Kind {
	case valVariable:
		off := 32
		if v.Large {
			off = 64
		}
		l.Details = &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: uint32(off)}
		l.ValueCompression = codecs.VariableEncoder{OffsetBits: off}.Encoding()
		compress, level := useFullZipGeneral(v, p), fullZipZstdLevel(p)
		if s.Rep == nil {
			return encodeFullZipRows(s, v, l, cw, off/8, compress, !compress && wantFSST(v, p, off), level), nil
		}
		if compress {
			l.ValueCompression = fullZipZstd(l.ValueCompression, level)
		} else if wantFSST(v, p, off) {
			var tab []byte
			tab, v = fsstCompress(v)
			l.ValueCompression = codecs.FSSTEncoding(tab, l.ValueCompression)
		}
		if !compress {
			size += len(v.Data)
			for j := 0; j < v.N; j++ {
				if v.Valid == nil || v.Valid[j] {
					size += off / 8
				}
			}
		}
		valueAt = func(j int, dst []byte) []byte {
			if v.Valid != nil && !v.Valid[j] {
				return dst
			}
			val := v.Data[v.Offsets[j]:v.Offsets[j+1]]
			if compress {
				val, _ = codecs.CompressZstdLanceWith(v.sc.pool().zstdEncoders(), nil, val, int(level))
			}
			dst = lebits.AppendUint(dst, uint64(len(val)), off/8)
			return append(dst, val...)
		}
	default:
		rowBytes := fullZipRowBytes(v)
		l.Details = &pb.FullZipLayout_BitsPerValue{BitsPerValue: uint32(8 * rowBytes)}
		l.ValueCompression = fullZipFixedEncoding(v)
		valueAt = func(j int, dst []byte) []byte { return appendFullZipRow(dst, v, j) }
		size += v.N * rowBytes
	}
	var data []byte
	var starts []uint64
	if rowsAreData(s, v, cw) {
		data = v.Data // no control words, rows back to back: the values as they are
	} else {
		data, starts = zipEntries(s, cw, bitsDef, size, valueAt)
	}
	bufs := [][]byte{data}
	if v.Kind == valVariable || s.Rep != nil {
		bufs = append(bufs, bytePack(starts, uint64(len(data))))
	}
	return &encodedPage{Buffers: bufs, NumRows: uint64(s.NumRows), Desc: "fullzip/" + describeShort(l.ValueCompression),
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: l}}}, nil
}

// fullZipZstd is the codec tree General(zstd) of full-zip values: unlike
// mini-block General, pylance 14.0.2 stores the zstd level of full-zip
// values explicitly (general(zstd:0, ...) by default).
func fullZipZstd(inner *pb.CompressiveEncoding, level int32) *pb.CompressiveEncoding {
	enc := codecs.GeneralEncoding(pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD, 0, inner)
	enc.GetGeneral().Compression.Level = &level
	return enc
}

// fullZipZstdLevel is the zstd level of compressed full-zip values, as
// pylance 14.0.2 picks it: lance-encoding:compression-level when the
// scheme asked is zstd, else 0 (full-zip values are zstd whatever the
// scheme: lz4 with a level still gives zstd:0).
func fullZipZstdLevel(p encodingParams) int32 {
	if p.compression == "zstd" {
		return int32(p.compressionLevel)
	}
	return 0
}

// maxLevel returns the largest level (0 for nil).
func maxLevel(l []uint16) uint16 {
	var m uint16
	for _, x := range l {
		m = max(m, x)
	}
	return m
}

// controlWordBytes is the width of a control word of n bits.
func controlWordBytes(n int) int {
	switch {
	case n == 0:
		return 0
	case n <= 8:
		return 1
	case n <= 16:
		return 2
	}
	return 4
}

// rowsAreData reports a full-zip page of fixed values whose zipped data
// is v.data itself: no control words, no list levels (no row starts
// buffer), no FSL validity, not booleans.
func rowsAreData(s *shredded, v *values, cw int) bool {
	if cw != 0 || s.Rep != nil || (v.Kind != valFixed && v.Kind != valFSL) || s.NumItems() != v.N {
		return false
	}
	for _, l := range v.FSL {
		if l.Validity != nil {
			return false
		}
	}
	return len(v.Data) == v.N*fullZipRowBytes(v)
}

// zipEntries interleaves control words and values; it returns the data and
// the byte offset where each row starts. size is the expected data size
// (a capacity hint).
func zipEntries(s *shredded, cw, bitsDef, size int, valueAt func(int, []byte) []byte) ([]byte, []uint64) {
	data := make([]byte, 0, size)
	starts := make([]uint64, 0, s.NumRows+1)
	vis := 0
	for i := 0; i < s.NumItems(); i++ {
		var rep, def uint16
		if s.Rep != nil {
			rep = s.Rep[i]
		}
		if s.Def != nil {
			def = s.Def[i]
		}
		if s.Rep == nil || rep == s.Set.MaxRep {
			starts = append(starts, uint64(len(data)))
		}
		if cw > 0 {
			data = lebits.AppendUint(data, uint64(rep)<<bitsDef|uint64(def), cw)
		}
		if def <= s.Set.MaxVisibleDef {
			data = valueAt(vis, data)
			vis++
		}
	}
	return data, append(starts, uint64(len(data)))
}

// bytePack stores offsets with the smallest of 1, 2, 4, 8 bytes that holds
// maxVal.
func bytePack(offsets []uint64, maxVal uint64) []byte {
	w := 8
	switch {
	case maxVal <= 0xFF:
		w = 1
	case maxVal <= 0xFFFF:
		w = 2
	case maxVal <= 0xFFFFFFFF:
		w = 4
	}
	out := make([]byte, 0, w*len(offsets))
	for _, o := range offsets {
		out = lebits.AppendUint(out, o, w)
	}
	return out
}

// fullZipRowBytes is the zipped size of one fixed value: per FSL layer with
// validity ⌈items/8⌉ bytes, then the items.
func fullZipRowBytes(v *values) int {
	n, cum := 0, 1
	for _, l := range v.FSL {
		cum *= l.Dim
		if l.Validity != nil {
			n += (cum + 7) / 8
		}
	}
	if v.Kind == valBool {
		return 1
	}
	return n + cum*v.Bits/8
}

// fullZipFixedEncoding is Flat or FixedSizeList…→Flat.
func fullZipFixedEncoding(v *values) *pb.CompressiveEncoding {
	if v.Kind == valFSL {
		return codecs.FSLEncoder{V: &v.Values}.Encoding()
	}
	return codecs.FlatEncoding(uint64(v.Bits))
}

// appendFullZipRow appends fixed value (or FSL row) j.
func appendFullZipRow(dst []byte, v *values, j int) []byte {
	if v.Kind == valBool {
		return append(dst, (v.Data[j/8]>>(j%8))&1)
	}
	return appendZippedRow(dst, v, j, false)
}

// appendZippedRow appends row j of v as per validity layer ⌈items/8⌉
// bytes of its bits, then its items. unmasked takes the validity bytes of
// a row that starts a byte from the bitmap as they are, the next rows'
// bits included, as Lance's dictionary keys do (dict_fsl.go); otherwise
// the row's bits are shifted into cleared bytes.
func appendZippedRow(dst []byte, v *values, j int, unmasked bool) []byte {
	cum := 1
	for _, l := range v.FSL {
		cum *= l.Dim
		if l.Validity == nil {
			continue
		}
		if start := j * cum; unmasked && start%8 == 0 {
			dst = append(dst, l.Validity[start/8:start/8+(cum+7)/8]...)
		} else {
			dst = append(dst, sliceBits(l.Validity, start, start+cum)...)
		}
	}
	w := cum * v.Bits / 8
	return append(dst, v.Data[j*w:(j+1)*w]...)
}

// describeShort names a codec tree for summaries.
func describeShort(e *pb.CompressiveEncoding) string {
	return codecs.Describe(e)
}

// encodeFullZipRows is encodeFullZip for variable values without lists
// (one entry per value, all visible): pieces of values are encoded (zstd
// one by one, FSST, or as they are) and zipped in parallel, and the data
// buffer is written as the pieces.
func encodeFullZipRows(s *shredded, v *values, l *pb.FullZipLayout, cw, offBytes int, zstd, fsst bool, level int32) *encodedPage {
	pools := s.sc.pool()
	var enc *codecs.FSSTEncoder
	switch {
	case zstd:
		l.ValueCompression = fullZipZstd(l.ValueCompression, level)
	case fsst:
		tab := pools.fsstScratch().BuildTable(v.Data, v.Offsets)
		enc = pools.fsstScratch().NewEncoder(tab)
		defer enc.Release()
		l.ValueCompression = codecs.FSSTEncoding(tab.Serialize(), l.ValueCompression)
	}
	parts := splitByBytes(v.Offsets, fsstPieceBytes)
	pieces := make([][]byte, len(parts)-1)
	starts := s.sc.u64sAny(v.N + 1) // each set by its piece, the last after them
	parallelFor(len(pieces), func(k int) {
		lo, hi := parts[k], parts[k+1]
		// encoded values of the piece: bytes and end offsets (from lo)
		var vals, scratch []byte
		var ends []uint64
		switch {
		case enc != nil:
			ends = make([]uint64, hi-lo)
			scratch = pools.getBytes(2*int(v.Offsets[hi]-v.Offsets[lo]) + 16)
			vals = enc.CompressValues(scratch, v.Data, v.Offsets[lo:hi+1], ends)
		case zstd:
			ends = make([]uint64, hi-lo)
			for j := lo; j < hi; j++ {
				if v.Valid == nil || v.Valid[j] {
					vals, _ = codecs.CompressZstdLanceWith(pools.zstdEncoders(), vals, v.Data[v.Offsets[j]:v.Offsets[j+1]], int(level))
				}
				ends[j-lo] = uint64(len(vals))
			}
		default:
			vals, ends = v.Data[v.Offsets[lo]:v.Offsets[hi]], v.Offsets[lo+1:hi+1]
		}
		base := uint64(0)
		if enc == nil && !zstd {
			base = v.Offsets[lo]
		}
		size := (hi-lo)*cw + len(vals)
		for j := lo; j < hi; j++ {
			if v.Valid == nil || v.Valid[j] {
				size += offBytes
			}
		}
		z := pools.getBytes(size)
		prev := base
		for j := lo; j < hi; j++ {
			starts[j] = uint64(len(z))
			if cw > 0 {
				var def uint64
				if s.Def != nil {
					def = uint64(s.Def[j])
				}
				z = lebits.AppendUint(z, def, cw)
			}
			end := ends[j-lo]
			if v.Valid == nil || v.Valid[j] {
				z = lebits.AppendUint(z, end-prev, offBytes)
				z = append(z, vals[prev-base:end-base]...)
			}
			prev = end
		}
		if scratch != nil {
			pools.putBytes(vals)
		}
		pieces[k] = z
	})
	total := uint64(0)
	for k, z := range pieces {
		for j := parts[k]; j < parts[k+1]; j++ {
			starts[j] += total
		}
		total += uint64(len(z))
	}
	starts[v.N] = total
	return &encodedPage{Buffers: [][]byte{nil, bytePack(starts, total)}, Split: [][][]byte{pieces}, Scratch: pieces,
		NumRows: uint64(s.NumRows), Desc: "fullzip/" + describeShort(l.ValueCompression),
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: l}}}
}
