package filewriter

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/codecs/alp"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lerr"
)

// This file is the encoding choice policy: the one place that decides, for each page, which structural layout and which
// codecs it gets. It reads top to bottom as the decision is made:
//
//  1. per-column parameters: Lance's field metadata keys, environment
//     variables and defaults (seed "Compression Configuration");
//  2. the structural layout: constant (2.2), dictionary first, full-zip
//     for values of 256 bytes or more, else mini-block (seed "Structural
//     Encoding", "Full Zip Page Layout", "Constant Page Layout");
//  3. the dictionary rule (seed "Dictionary Encoding");
//  4. the mini-block value codec: flat, bit-packing, RLE, byte-stream-split,
//     FSST, General on top (seed "Compression": "Flat", "Bitpacking",
//     "Run Length Encoding", "Byte Stream Split", "Fsst", "General");
//  5. full-zip per-value compression and the rep/def level codec;
//  6. 2.3 (planar pages): dense by default, sparse for all-null and
//     nullable-constant pages, on request, over the dense structural
//     budget and for mostly-null wide values (seed "Planar Page Layout";
//     the choices of pylance 14.0.2, measured);
//  7. 2.3 only, and only when a field asks: the seed's float codecs ALP /
//     ALP-RD and pcodec (seed "ALP", "Pcodec"), which no released Lance
//     writes.
//
// The seed is /work/shared/spec/seeds/lance-encoding-strategy.txt (Lance's
// "Encoding Strategy" page); Lance's own source of each rule is named where
// it differs from the page. The encoders themselves are in package codecs
// and in the structural encoders of this package; nothing here writes bytes.
// Beside it: the measurements the rules compare (measure.go), the parsing
// of key values (parse.go) and the building of planar pages
// (planar_pages.go, planar_indexed.go).

// ---- 1. Per-column parameters (seed "Compression Configuration":
// lance-encoding:* keys; env: LANCE_ENCODING_DICT_*,
// LANCE_MINIBLOCK_MAX_VALUES).

// Field metadata keys read by the writer (stored verbatim in the schema).
const (
	metaCompression      = "lance-encoding:compression"
	metaCompressionLevel = "lance-encoding:compression-level"
	metaRLEThreshold     = "lance-encoding:rle-threshold"
	metaBSS              = "lance-encoding:bss"
	metaDictDivisor      = "lance-encoding:dict-divisor"
	metaDictSizeRatio    = "lance-encoding:dict-size-ratio"
	metaDictValuesComp   = "lance-encoding:dict-values-compression"
	metaDictValuesLevel  = "lance-encoding:dict-values-compression-level"
	metaStructural       = "lance-encoding:structural-encoding"
	metaALP              = "lance-encoding:alp"
	metaAxisDelta        = "lance-encoding:axis-delta" // lancego's key: "AXIS_LENGTH,INNER_STRIDE"
)

// Defaults of the encoding parameters (Lance's values).
const (
	defaultRLEThreshold   = 0.5
	defaultDictTooSmall   = 100
	defaultDictSizeRatio  = 0.8
	defaultDictDivisor    = 2
	defaultMiniblockValue = 4096
	maxMiniblockValues    = 32768
)

// encodingParams are the per-column encoding choices. Precedence: field
// metadata, then environment variables, then defaults.
type encodingParams struct {
	compression      string // "" (auto), none, lz4, zstd, fsst
	compressionLevel int
	rleThreshold     float64
	rleUserSet       bool   // lance-encoding:rle-threshold given: it gates RLE
	bss              string // auto, on, off
	dictTooSmall     uint64
	dictSizeRatio    float64
	dictDivisor      uint64
	dictValuesComp   string // "" = version default (2.2: lz4; 2.1 never compresses)
	dictValuesLevel  int
	dictMaxEntries   uint64 // cap of the cardinality threshold (LANCE_ENCODING_DICT_MAX_CARDINALITY)
	structural       string // "", miniblock, fullzip
	miniblockValues  uint64
	alp              alp.Mode // Off unless the field asks (section 7)
	pcodecLevel      int      // compression=pcodec: 0..12, default 8
	axisDelta        [2]int   // axis_length, inner_stride; zero: not asked
}

// parseEncodingParams reads the lance-encoding:* keys of f and the
// LANCE_ENCODING_DICT_* / LANCE_MINIBLOCK_MAX_VALUES environment variables.
func parseEncodingParams(f arrow.Field, env func(string) string) (encodingParams, error) {
	if env == nil {
		env = os.Getenv
	}
	p := encodingParams{rleThreshold: defaultRLEThreshold, bss: "auto", dictTooSmall: defaultDictTooSmall,
		dictSizeRatio: defaultDictSizeRatio, dictDivisor: defaultDictDivisor, miniblockValues: defaultMiniblockValue}
	get := func(k string) string { v, _ := f.Metadata.GetValue(k); return v }
	var err error
	p.compression = get(metaCompression)
	switch p.compression {
	case "", "none", "lz4", "zstd", "fsst", "pcodec":
	default:
		return p, fmt.Errorf("%w: %s=%q", lerr.ErrInvalidArgument, metaCompression, p.compression)
	}
	if err = parseInt(get(metaCompressionLevel), &p.compressionLevel); err != nil {
		return p, err
	}
	if v := get(metaRLEThreshold); v != "" {
		p.rleUserSet = true
		if p.rleThreshold, err = strconv.ParseFloat(v, 64); err != nil {
			return p, fmt.Errorf("%w: %s=%q", lerr.ErrInvalidArgument, metaRLEThreshold, v)
		}
	}
	switch v := strings.ToLower(get(metaBSS)); v {
	case "auto", "on", "off":
		p.bss = v // anything else: Lance warns and keeps auto
	}
	p.dictTooSmall = envUint(env("LANCE_ENCODING_DICT_TOO_SMALL"), p.dictTooSmall)
	p.dictMaxEntries = envUint(env("LANCE_ENCODING_DICT_MAX_CARDINALITY"), maxDictEntries)
	p.dictSizeRatio = firstFloat(get(metaDictSizeRatio), env("LANCE_ENCODING_DICT_SIZE_RATIO"), p.dictSizeRatio)
	if p.dictSizeRatio <= 0 || p.dictSizeRatio > 1 {
		return p, fmt.Errorf("%w: dict-size-ratio %v not in (0, 1]", lerr.ErrInvalidArgument, p.dictSizeRatio)
	}
	p.dictDivisor = envUint(get(metaDictDivisor), envUint(env("LANCE_ENCODING_DICT_DIVISOR"), p.dictDivisor))
	p.dictValuesComp = get(metaDictValuesComp)
	if p.dictValuesComp == "" {
		p.dictValuesComp = env("LANCE_ENCODING_DICT_VALUES_COMPRESSION")
	}
	if n, err := strconv.Atoi(env("LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL")); err == nil {
		p.dictValuesLevel = n // the environment's fallback; a bad value is ignored
	}
	if err = parseInt(get(metaDictValuesLevel), &p.dictValuesLevel); err != nil {
		return p, err
	}
	p.structural = get(metaStructural)
	if err = parseCodecs23(get, &p); err != nil {
		return p, err
	}
	mv := envUint(env("LANCE_MINIBLOCK_MAX_VALUES"), p.miniblockValues)
	p.miniblockValues = min(max(mv, 8), maxMiniblockValues)
	return p, nil
}

// ---- 2. Structural layout (seed "Structural Encoding"; "Full Zip Page
// Layout": 256-byte cutoff; "Constant Page Layout": 2.2 only).

// fullZipThreshold: values of this many bytes or more go to full-zip pages.
const fullZipThreshold = 256

// encodeValues picks the structural layout and codec for gathered values.
func encodeValues(s *shredded, v *values, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	if cfg.version >= format.V2_3 {
		if page, ok, err := planarConstant(s, v); ok || err != nil {
			return page, err
		}
	} else if cfg.version >= format.V2_2 {
		if c, ok := layouts.ConstantValue(&v.Values); ok {
			return layouts.EncodeConstant(&s.Shredded, c), nil
		}
		if c, ok := layouts.ConstantString(&s.Shredded, &v.Values); ok {
			return layouts.EncodeConstantBuffer(&s.Shredded, c), nil
		}
	}
	p := l.params
	if cfg.version >= format.V2_3 {
		if page, ok, err := planarSparse(s, v, l, cfg); ok || err != nil {
			return page, err
		}
	}
	if page, ok, err := encodeCodecs23(s, v, l, cfg); ok || err != nil {
		return page, err
	}
	// Like Lance, a dictionary is tried first, whatever the layout the
	// values would get without one (its indices are mini-block).
	if page, ok, err := tryDictionary(s, v, p, cfg.version); ok || err != nil {
		return page, err
	}
	if p.structural == "fullzip" || (p.structural != "miniblock" && maxValueBytes(v) >= fullZipThreshold) {
		return encodeFullZip(s, v, p, cfg.version)
	}
	if err := checkMiniBlockWidth(v); err != nil {
		return nil, err
	}
	return encodeMiniBlock(s, v, miniCodecFor(v, p, cfg.version), cfg.version, int(p.miniblockValues))
}

// miniCodecFor is the mini-block codec of v (chooseMiniCodec) inside
// General when lz4/zstd asks for it and it pays (withGeneral); a 2.3 RLE
// compresses its children instead (planar_rle.go); fixed-size lists are
// never compressed.
func miniCodecFor(v *values, p encodingParams, ver format.Version) miniCodec {
	codec := chooseMiniCodec(v, p, ver)
	if v.Kind == valFSL {
		// Lance's mini-block compressor of fixed-size lists is the plain
		// value encoder, whatever lance-encoding:compression asks (pylance
		// 14.0.2: fsl(13, flat(32|8|1)) under zstd; TestWriterFSLBool)
		return codec
	}
	if ver >= format.V2_3 {
		switch codec.(type) {
		case codecs.RLEEncoder, rleChildEncoder:
			return codec
		}
	}
	return withGeneral(codec, v, p)
}

// checkMiniBlockWidth refuses, as pylance 14.0.2 does ("Value is too wide
// for miniblock encoding"), fixed-width values of which two do not fit a
// mini-block chunk: every chunk but the last holds at least 2 values.
// Only a requested mini-block layout reaches it with such values.
// Fixed-size lists are measured on Lance's estimate (codecs.FSLWord),
// which 14.0.2 asserts twice of stays below the budget.
func checkMiniBlockWidth(v *values) error {
	switch v.Kind {
	case valFixed:
	case valFSL:
		if word, _ := codecs.FSLWord(&v.Values); 2*word >= codecs.MiniBlockFixedChunkBytes {
			return fmt.Errorf("%w: value is too wide for mini-block encoding: 2 words of fixed-size lists need about %d bytes, a chunk holds %d",
				lerr.ErrInvalidArgument, 2*word, codecs.MiniBlockFixedChunkBytes)
		}
		return nil
	default:
		return nil
	}
	if need := 2 * v.RowBits() / 8; need > codecs.MiniBlockFixedChunkBytes {
		return fmt.Errorf("%w: value is too wide for mini-block encoding: 2 values need %d bytes, a chunk holds %d",
			lerr.ErrInvalidArgument, need, codecs.MiniBlockFixedChunkBytes)
	}
	return nil
}

// ---- 3. Dictionary (seed "Dictionary Encoding"; Lance:
// should_dictionary_encode and the dictionary_encode defaults).

// Lance's dictionary limits (lance-encoding's should_dictionary_encode and
// dictionary_encode defaults).
const (
	maxDictEntries      = 100_000 // default cap of the cardinality threshold (LANCE_ENCODING_DICT_MAX_CARDINALITY)
	maxDictValueBytes   = 8 << 20 // cap of a variable-width dictionary's value bytes (dict-max-size)
	dictSampleMax       = 4096    // values sampled before a dictionary is tried
	dictSampleBlocks    = 32      // evenly spaced runs the sample is drawn from
	dictSampleMin       = 1024    // smaller samples are not trusted: no sampling gate
	dictSampleUniqueMax = 0.98    // a sample this unique never gets a dictionary
	dictIndexBytes      = 4       // Lance budgets every index as 32 bits
)

// dictEligible reports whether Lance would consider dictionary encoding v.
// From 2.3 fixed-size lists are eligible (pylance 14.0.2, measured: any
// row width; the budget then keeps rows of 40 bits or less out, as their
// 32-bit indices and entries outweigh 0.8 of the data). Lists with null
// items are keyed on their rows zipped with their validity bytes, those of
// a row starting on a byte including the next rows' bits, as 14.0.2 keys
// them (dict_fsl.go, TestWriterFSLItems).
// Lists of booleans never get one (measured: 5000 rows of 48, 64 and 512
// booleans with 1 to 5 distinct rows stay fsl → flat(1)).
func dictEligible(v *values, ver format.Version) bool {
	switch v.Kind {
	case valVariable:
		return true
	case valFixed:
		return v.Bits == 128 || (ver >= format.V2_2 && v.Bits == 64)
	case valFSL:
		return ver >= format.V2_3 && v.RowBits()%8 == 0 && v.Bits%8 == 0
	}
	return false
}

// tryDictionary dictionary-encodes v when Lance would: the sampling gate of
// shouldDictionary admits it and the exact dictionary stays within budget.
// Like Lance, it does so whatever lance-encoding:compression says.
func tryDictionary(s *shredded, v *values, p encodingParams, ver format.Version) (*encodedPage, bool, error) {
	b, ok := shouldDictionary(v, p, ver)
	if !ok {
		return nil, false, nil
	}
	set, ind := buildDictionary(v, &b)
	if set == nil {
		return nil, false, nil
	}
	page, err := dictionaryPage(s, v, set.first, ind, p, ver)
	return page, err == nil, err
}

// dictBudget bounds an exact dictionary build: it is abandoned once it
// needs more than maxEntries entries, more than maxValueBytes value bytes
// (variable width only) or more than maxEncoded bytes of dictionary values,
// dictionary offsets and 32-bit indices together.
type dictBudget struct {
	maxEntries    uint64
	maxEncoded    uint64
	maxValueBytes uint64
}

// shouldDictionary is Lance's should_dictionary_encode: the page must be
// eligible and not too small, and a sample of its values must be neither
// nearly unique nor project more distinct values than the threshold
// min(n/divisor, 100 000). It returns the budget of the exact build.
func shouldDictionary(v *values, p encodingParams, ver format.Version) (dictBudget, bool) {
	n := uint64(v.N)
	if !dictEligible(v, ver) || n < p.dictTooSmall {
		return dictBudget{}, false
	}
	limit := min(n/max(p.dictDivisor, 1), p.dictMaxEntries)
	size := dictDataSize(v)
	if limit == 0 || size == 0 {
		return dictBudget{}, false
	}
	zipFSLRows(v) // the keys of fixed-size lists with null items
	if r, ok := sampleUniqueRatio(v); ok && !sampleAdmits(r, n, limit) {
		return dictBudget{}, false
	}
	return dictBudget{maxEntries: limit, maxEncoded: uint64(float64(size) * p.dictSizeRatio),
		maxValueBytes: maxDictValueBytes}, true
}

// sampleAdmits is the sampling gate: a sample unique ratio r below 0.98
// whose projection ceil(r*n) onto the n values is at most limit.
func sampleAdmits(r float64, n, limit uint64) bool {
	return r < dictSampleUniqueMax && uint64(math.Ceil(r*float64(n))) <= limit
}

// ---- 4. Mini-block value codec (seed "Flat", "Bitpacking", "Run Length
// Encoding (RLE) Threshold", "Byte Stream Split (BSS)", "Fsst", "General").

// chooseMiniCodec selects the mini-block value codec like Lance: RLE or
// bit-packing when they make the data smaller, else flat.
func chooseMiniCodec(v *values, p encodingParams, ver format.Version) miniCodec {
	switch v.Kind {
	case valBool:
		return codecs.FlatEncoder{Bits: 1}
	case valFSL:
		return codecs.FSLEncoder{V: &v.Values}
	case valVariable:
		return chooseVariableCodec(v, p, ver)
	}
	if p.compression == "none" || (v.Bits != 8 && v.Bits != 16 && v.Bits != 32 && v.Bits != 64) {
		return codecs.FlatEncoder{Bits: v.Bits}
	}
	if useBSS(v, p) {
		return codecs.BSSEncoder{Bits: v.Bits}
	}
	flat := v.N * v.Bits / 8
	packed, runs, or, _ := codecs.FixedStats(&v.Values) // 8-64 bits here
	rle := runs * (v.Bits/8 + 1)
	// 2.3: RLE's children are stored one by one (planar_rle.go); 14.0.2
	// weighs RLE at its children's size against bit-packing, except for
	// dictionary indices (measured: 3000 keys in runs of 3 stay bit-packed).
	var rle23 miniCodec
	if ver >= format.V2_3 && rleChildrenMayWin(v, p, runs, rle, min(packed, flat), or) {
		var size int
		rle23, size = chooseChildRLE(codecs.RLEEncoder{Bits: v.Bits}, v, int(p.miniblockValues), rleGeneralFor(v, p))
		if !p.rleUserSet && !v.indices {
			rle = min(rle, size)
		}
	}
	// RLE is taken when it is the smallest; a field that sets
	// rle-threshold also gates it to fewer runs than threshold × values
	// (without the key there is no gate), as pylance 14.0.2 does
	// (TestEncodingKeyMatrix's rle-threshold rows).
	gated := p.rleUserSet && float64(runs) >= p.rleThreshold*float64(v.N)
	if !gated && rle < packed && rle < flat {
		if rle23 != nil {
			return rle23
		}
		return codecs.RLEEncoder{Bits: v.Bits}
	}
	if packed < flat {
		return codecs.InlineBitpackingEncoder{Bits: v.Bits}
	}
	return codecs.FlatEncoder{Bits: v.Bits}
}

// rleChildrenMayWin reports whether 2.3's RLE with stored children could
// be the smallest codec of v (runs u8-length runs, rle their plain size,
// best the smaller of bit-packing and flat, or the OR of every value), so
// that chooseChildRLE, which chunks and encodes the whole page, is worth
// running. Without General
// compression the children take at least the run values bit-packed at the
// width of every value's OR (runs of them, however the chunks split runs)
// plus a bit per run length: when that is not below best, and the plain
// size is not either, RLE loses whatever chooseChildRLE finds.
func rleChildrenMayWin(v *values, p encodingParams, runs, rle, best int, or uint64) bool {
	if p.compression == "lz4" || p.compression == "zstd" {
		return true
	}
	if p.rleUserSet || v.indices { // only the plain size counts
		return rle < best
	}
	w := max(bits.Len64(or), 1)
	floor := runs*w/8 + runs/8
	return floor < best || rle < best
}

// chooseVariableCodec picks Variable (FSST when it pays off); at 2.3 the
// offsets are bit-packed lengths or RLE runs when that is strictly smaller
// (seed "Variable", generic variable-width offsets; planar_offsets.go,
// planar_offsets_rle.go), as pylance 14.0.2 writes them.
func chooseVariableCodec(v *values, p encodingParams, ver format.Version) miniCodec {
	bitsOff := 32
	if v.Large {
		bitsOff = 64
	}
	if c, ok := tryFSST(v, p, bitsOff); ok {
		return c
	}
	legacy := codecs.VariableEncoder{OffsetBits: bitsOff}
	// General compression (lz4/zstd) works on the chunk's first buffer,
	// which must stay the legacy offsets-and-bytes buffer.
	if ver >= format.V2_3 && p.compression != "lz4" && p.compression != "zstd" {
		if l, ok := equalLengths(v); ok {
			return rangeOffsetsEncoder{legacy: legacy, length: l}
		}
		mv := int(p.miniblockValues)
		best, cost := miniCodec(legacy), variableCost(legacy, v, mv)
		cands := []miniCodec{newLengthOffsetsEncoder(v, legacy)}
		if r, ok := newRLEOffsetsEncoder(v, legacy, mv); ok {
			cands = append(cands, r)
		}
		for _, c := range cands {
			if k := variableCost(c, v, mv); k < cost {
				best, cost = c, k
			}
		}
		return best
	}
	return legacy
}

// bssSampleValues is how many leading values the byte-position entropy of
// the auto mode looks at (Lance: statistics.rs, 64).
const bssSampleValues = 64

// useBSS reports whether Lance would byte-stream-split fixed values v: only
// 32/64-bit values with lz4/zstd/fsst compression requested; bss=on always,
// off never, auto when the mean Shannon entropy of the byte positions over
// the first 64 values is below 4 bits.
func useBSS(v *values, p encodingParams) bool {
	if p.compression == "" || p.compression == "none" || (v.Bits != 32 && v.Bits != 64) {
		return false
	}
	switch p.bss {
	case "off":
		return false
	case "on":
		return true
	}
	return meanByteEntropy(v) < 4
}

// wantFSST reports whether Lance would FSST-compress the variable values v:
// when asked to (compression=fsst), or when the longest value has at least 5
// bytes and the page's data plus offsets reach 32 KiB (unless
// compression is requested: none, or lz4/zstd which wrap plain Variable).
// Lance never picks it on its own for binary columns. Below 32 KiB of data the table is switched off.
func wantFSST(v *values, p encodingParams, bitsOff int) bool {
	switch {
	case p.compression == "fsst":
		return true
	case p.compression != "" || v.Binary:
		return false // none, or lz4/zstd: General over plain Variable
	}
	size := len(v.Data) + (v.N+1)*bitsOff/8
	return maxValueBytes(v) >= codecs.FSSTMinMaxLen && size >= codecs.FSSTMinInputBytes
}

// tryFSST returns an FSST codec when Lance would use one.
func tryFSST(v *values, p encodingParams, bitsOff int) (miniCodec, bool) {
	if !wantFSST(v, p, bitsOff) {
		return nil, false
	}
	tab, cv := fsstCompress(v)
	return codecs.FSSTMiniBlockEncoder{Table: tab, Compressed: &cv.Values, Inner: codecs.VariableEncoder{OffsetBits: bitsOff}}, true
}

// generalMinBytes: General compression is skipped for pages whose value
// buffer 0 is smaller than this (Lance: 4096).
const generalMinBytes = 4096

// withGeneral wraps codec in General when lz4/zstd was requested and the
// page's first value buffer is large enough and actually shrinks.
func withGeneral(codec miniCodec, v *values, p encodingParams) miniCodec {
	var scheme pb.CompressionScheme
	switch p.compression {
	case "lz4":
		scheme = pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	case "zstd":
		scheme = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
	default:
		return codec
	}
	g := codecs.GeneralEncoder{Inner: codec, Scheme: scheme, Level: p.compressionLevel, Zstd: v.sc.pool().zstdEncoders()}
	raw, packed := firstBufferSizes(codec, g, v, int(p.miniblockValues))
	if raw < generalMinBytes || packed >= raw {
		return codec
	}
	return g
}

// ---- 5. Full-zip compression and rep/def levels (seed "General": values of
// 32 KiB or more; "Repetition and Definition Levels"). The level codec
// rule, chooseLevelCodec, is in levelcodec.go.

// Full-zip general compression thresholds (Lance compression.rs).
const (
	fullZipGeneralMaxLen = 32 << 10
	fullZipGeneralData   = 32 << 10
)

// useFullZipGeneral reports whether variable full-zip values are compressed
// one by one with zstd: values over 32 KiB or a requested lz4/zstd
// compression, and at least 32 KiB of data.
func useFullZipGeneral(v *values, p encodingParams) bool {
	if p.compression == "none" || p.compression == "fsst" || len(v.Data) < fullZipGeneralData {
		return false
	}
	return p.compression == "lz4" || p.compression == "zstd" || maxValueBytes(v) > fullZipGeneralMaxLen
}

// ---- 6. 2.3 planar pages (seed "Planar Page Layout", "Sparse Structural
// Domains"; Lance's source of 14.0.2's writer is not public, so the rules
// below are pylance 14.0.2's choices measured on its files, see
// sparse_rule_test.go). Every page first gets its 2.2 choice and is
// re-described as a dense planar page (layouts.DensePlanar); these rules
// pick sparse structure instead where 14.0.2 does (seed: "sparse structure
// for an explicit sparse request with nontrivial structure, dense
// structural-budget overflow, complex constants, structural-only pages, and
// mostly-null wide values"): pages without values (all null, empty lists),
// nullable constants, and pages with nulls or lists when wantSparse says so.

// Dense structural budget (14.0.2, measured): a page whose levels include
// null or empty lists (or lists under null structs) stays dense while its
// levels need fewer than 16 KiB at their bit widths, i.e. number of levels
// x (bits of the highest rep level + bits of the highest def level) <
// 131072 bits; at or past it the page is sparse. Pages of all-valid
// non-empty lists (any size) are never over budget.
const denseStructuralBudgetBits = 16 << 10 * 8

// indexedMinDictBytes: a sparse page's dictionary of binary or string
// values whose value bytes and 32-bit offsets reach 64 KiB is stored as an
// indexed value plane, a smaller one beside chunked indices (14.0.2,
// measured: 34 values of 1921 bytes chunked, of 1927 bytes indexed).
const indexedMinDictBytes = 64 << 10

// wantSparse reports whether a 2.3 page with nulls or lists gets sparse
// structure: always when fixed-size lists of structs and lists share its
// path (14.0.2, measured: even all-valid ones); on request (structural-encoding=sparse); and, unless
// miniblock or fullzip is requested, when the dense structure is over
// budget (denseOverBudget) or when the values are wide (those that would
// be zipped: 256 bytes or more) and more than half of the leaf slots are
// null (mostlyNullWide). pylance 14.0.2 cuts over-budget pages of a
// miniblock or fullzip request into smaller pages it then cannot read back
// ("Dense no-values requires a single null leaf layer"); we keep them dense.
func wantSparse(s *shredded, v *values, p encodingParams) bool {
	if s.FSL != nil && !s.FSL.DenseFSL {
		return true // fixed-size lists of structs beside lists: no dense form
	}
	if s.Rep == nil && s.Def == nil {
		return false // trivial all-valid pages stay dense
	}
	switch p.structural {
	case "sparse":
		return true
	case "miniblock", "fullzip":
		return false
	}
	return denseOverBudget(s) || mostlyNullWide(s, v)
}

// planarConstant: a page whose non-null values are one fixed-width scalar
// is a dense constant page when nothing is null or empty, else a sparse
// page with a constant value plane. A constant string page is not a 2.3
// constant (the scalar is fixed-width): it falls through to the
// dictionary, as in 14.0.2.
func planarConstant(s *shredded, v *values) (*encodedPage, bool, error) {
	c, ok := layouts.ConstantValue(&v.Values)
	if !ok {
		return nil, false, nil
	}
	if s.Rep == nil && s.Def == nil {
		return layouts.EncodeConstant(&s.Shredded, c), true, nil
	}
	page, err := layouts.EncodeSparse(&s.Shredded, layouts.ConstantPlane(c), nil, -1, "planar/sparse/constant")
	return page, err == nil, err
}

// planarAllNull: a page without a non-null value (all null, or only
// empty and null lists) is a sparse page with no values.
func planarAllNull(s *shredded) (*encodedPage, error) {
	return layouts.EncodeSparse(&s.Shredded, layouts.NoValuesPlane(), nil, -1, "planar/sparse/none")
}

// planarSparse gives the page sparse structure when wantSparse says so.
// Values under the full-zip threshold are chunked: one value per terminal
// slot (nulls included) in mini-block chunks without levels; wider ones are
// zipped (seed "Planar Page Layout": narrow sparse values are chunked, wide
// ones zipped).
func planarSparse(s *shredded, v *values, l *wleaf, cfg *writerConfig) (*encodedPage, bool, error) {
	p := l.params
	if !wantSparse(s, v, p) {
		return nil, false, nil
	}
	slots, err := slotRows(s, v)
	if err != nil {
		return nil, false, err
	}
	// The dictionary rule applies as for dense pages, wide values
	// included; a string or binary dictionary of indexedMinDictBytes or
	// more gives indexed values (planar_indexed.go).
	if page, ok, err := sparseDictionary(s, slots, v, p, cfg); ok || err != nil {
		return page, ok, err
	}
	if maxValueBytes(v) >= fullZipThreshold {
		return encodeSparseZipped(s, v, p, cfg)
	}
	codec := miniCodecFor(v, p, cfg.version)
	inner, err := encodeMiniBlock(slots, v, codec, cfg.version, int(p.miniblockValues))
	if err != nil {
		return nil, false, err
	}
	return encodeSparseChunked(s, v, inner)
}

// ---- 7. The seed's 2.3 float codecs (seed "ALP", "Pcodec"). No released
// Lance writes them (pylance 14.0.2 refuses compression=pcodec), so they are
// used only at 2.3 and only when a field asks: lance-encoding:alp=on|auto
// (no key: off, unlike the seed's auto default, so a default 2.3 file stays
// readable by pylance), or lance-encoding:compression=pcodec with
// compression-level 0..12 (default 8); and axis delta on integer tensors
// (lancego's key lance-encoding:axis-delta=AXIS_LENGTH,INNER_STRIDE, since
// the seed names none): a full-zip page of transformed tensors, one zstd
// frame per tensor inside General when compression=zstd|lz4 asks and the
// page has no nulls (seed: valid only in per-value positions). An explicit
// request wins over the
// dictionary and full-zip choices; ALP still keeps flat when it would not
// be smaller (its auto mode also gates on byte-position entropy < 4.6 bits).

// encodeCodecs23 (codecs23.go) applies these requests.
