package filewriter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lancego/lancego/codecs/alp"
	"github.com/lancego/lancego/codecs/pcodec"
	"github.com/lancego/lancego/internal/lerr"
)

// Parsing of the field metadata values and environment variables that the
// choice policy's per-column parameters (policy.go, section 1) read.

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

// parseCodecs23 reads lance-encoding:alp and the pcodec level.
func parseCodecs23(get func(string) string, p *encodingParams) error {
	p.alp = alp.Off
	if v := get(metaALP); v != "" {
		m, err := alp.ParseMode(v)
		if err != nil {
			return fmt.Errorf("%w: %w", lerr.ErrInvalidArgument, err)
		}
		p.alp = m
	}
	if v := get(metaAxisDelta); v != "" {
		a, b, ok := strings.Cut(v, ",")
		al, err1 := strconv.Atoi(strings.TrimSpace(a))
		st, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || al <= 0 || st <= 0 {
			return fmt.Errorf("%w: %s=%q, want AXIS_LENGTH,INNER_STRIDE (positive)", lerr.ErrInvalidArgument, metaAxisDelta, v)
		}
		p.axisDelta = [2]int{al, st}
	}
	if p.compression == "pcodec" {
		l, err := pcodec.ParseLevel(get(metaCompressionLevel))
		if err != nil {
			return fmt.Errorf("%w: %w", lerr.ErrInvalidArgument, err)
		}
		p.pcodecLevel = l
	}
	return nil
}
