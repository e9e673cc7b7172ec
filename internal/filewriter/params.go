package filewriter

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/internal/lerr"
)

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
	rleUserSet       bool
	bss              string // auto, on, off
	dictTooSmall     uint64
	dictSizeRatio    float64
	dictDivisor      uint64
	dictValuesComp   string // "" = version default (2.2: lz4, 2.1: none)
	dictValuesLevel  int
	structural       string // "", miniblock, fullzip
	miniblockValues  uint64
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
	case "", "none", "lz4", "zstd", "fsst":
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
	p.dictSizeRatio = firstFloat(get(metaDictSizeRatio), env("LANCE_ENCODING_DICT_SIZE_RATIO"), p.dictSizeRatio)
	if p.dictSizeRatio <= 0 || p.dictSizeRatio > 1 {
		return p, fmt.Errorf("%w: dict-size-ratio %v not in (0, 1]", lerr.ErrInvalidArgument, p.dictSizeRatio)
	}
	p.dictDivisor = envUint(get(metaDictDivisor), envUint(env("LANCE_ENCODING_DICT_DIVISOR"), p.dictDivisor))
	p.dictValuesComp = get(metaDictValuesComp)
	if p.dictValuesComp == "" {
		p.dictValuesComp = env("LANCE_ENCODING_DICT_VALUES_COMPRESSION")
	}
	if err = parseInt(get(metaDictValuesLevel), &p.dictValuesLevel); err != nil {
		return p, err
	}
	p.structural = get(metaStructural)
	mv := envUint(env("LANCE_MINIBLOCK_MAX_VALUES"), p.miniblockValues)
	p.miniblockValues = min(max(mv, 8), maxMiniblockValues)
	return p, nil
}

// parseInt parses s into dst when s is not empty.
func parseInt(s string, dst *int) error {
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%w: bad integer %q", lerr.ErrInvalidArgument, s)
	}
	*dst = n
	return nil
}

// envUint parses s as an unsigned integer, or returns def.
func envUint(s string, def uint64) uint64 {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil && n > 0 {
		return n
	}
	return def
}

// firstFloat returns the first of a, b that parses as a float, else def.
func firstFloat(a, b string, def float64) float64 {
	for _, s := range []string{a, b} {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return def
}
