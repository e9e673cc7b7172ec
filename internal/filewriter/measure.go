package filewriter

import "math"

// Measurements of a page's values and levels that the choice policy
// (policy.go) compares against its thresholds.

// maxValueBytes is the size of the largest value, as Lance's MaxLength
// statistic counts it (fixed-size lists: item length × dimensions).
func maxValueBytes(v *values) int {
	switch v.Kind {
	case valVariable:
		m := uint64(0)
		for i := 0; i < v.N; i++ {
			m = max(m, v.ValueLen(i))
		}
		return int(m)
	case valBool:
		return 1
	case valFSL:
		if v.Bits%8 != 0 {
			return 0 // Lance: an item's max length is bits/8, 0 for booleans
		}
	}
	return v.RowBits() / 8
}

// dictDataSize is the size Lance compares a dictionary against: the value
// bytes, plus the n+1 offsets for variable width; fixed-size lists with
// null items count their validity bytes too (zipped rows, as Lance keys
// them: pylance 14.0.2 takes 116 of 900 such 7-byte rows of f16x3).
func dictDataSize(v *values) uint64 {
	n := uint64(v.N)
	switch v.Kind {
	case valFixed:
		return n * uint64(v.Bits/8)
	case valFSL:
		if fslHasValidity(v) { // rows with null items: zipped with their validity
			return n * uint64(fullZipRowBytes(v))
		}
		return n * uint64(v.RowBits()/8)
	}
	return uint64(len(v.Data)) + (n+1)*offsetBytes(v)
}

// meanByteEntropy is the mean over byte positions of the entropy (in bits,
// truncated to 1/1000 like Lance) of the first bssSampleValues values.
func meanByteEntropy(v *values) float64 {
	w := v.Bits / 8
	n := min(v.N, bssSampleValues)
	if n == 0 {
		return math.Inf(1)
	}
	var sum uint64
	for pos := 0; pos < w; pos++ {
		var counts [256]int
		for i := 0; i < n; i++ {
			counts[v.Data[i*w+pos]]++
		}
		e := 0.0
		for _, c := range counts {
			if c > 0 {
				q := float64(c) / float64(n)
				e -= q * math.Log2(q)
			}
		}
		sum += uint64(e * 1000)
	}
	return float64(sum) / float64(w) / 1000
}

// firstBufferSizes encodes the page's chunks with codec and with g (codec
// inside General) and returns the sizes of their first value buffers.
func firstBufferSizes(codec, g miniCodec, v *values, maxValues int) (raw, packed int) {
	var tmp []byte
	for start := 0; start < v.N; {
		end := start + codec.Next(&v.Values, start, maxValues)
		b := codec.Encode(&v.Values, start, end, &tmp)[0]
		raw += len(b)
		packed += len(g.Encode(&v.Values, start, end, &tmp)[0])
		start = end
		tmp = tmp[:0]
	}
	return raw, packed
}
