package filewriter

import (
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/lebits"
)

// Dictionaries of fixed-size lists with null items (2.3). pylance 14.0.2
// (measured: 900 rows repeating [1,null,3], null, [4,5,6] as
// fixed_size_list<int16, 3> give 6 entries) keys and stores each row as
// its zipped bytes, as a full-zip page holds it: per validity layer
// ⌈items/8⌉ bytes of the row's validity bits, then its items. A row whose
// first bit starts a byte takes those bytes from the page's bitmap as they
// are, bits of the following rows included; the bits of any other row are
// shifted into cleared bytes. Equal rows that start on a byte therefore
// get entries of their own whenever their neighbours differ. The entries
// are then gathered (their bits packed one after another in a new bitmap)
// and zipped by the same rule, so an entry that starts a byte of the
// dictionary's bitmap carries the bits of the entries after it. This
// writer does the same, so its dictionaries are Lance's byte for byte.

// zipFSLRows sets v's zipped rows (zipped, zipWidth), which valueBytes
// then returns as the rows' dictionary keys. Nothing is done for values
// other than fixed-size lists with null items.
func zipFSLRows(v *values) {
	if v.Kind != valFSL || !fslHasValidity(v) || v.zipped != nil {
		return
	}
	w := fullZipRowBytes(v)
	out := make([]byte, 0, v.N*w)
	for j := 0; j < v.N; j++ {
		out = appendZippedRow(out, v, j, true)
	}
	v.zipped, v.zipWidth = out, w
}

// dictFSLEntries returns the dictionary buffer of the entries order of v
// (fixed-size lists with null items): the rows gathered, then zipped.
func dictFSLEntries(v *values, order []int) []byte {
	d := &values{Values: codecs.Values{Kind: valFSL, N: len(order), Bits: v.Bits}}
	w := v.RowBits() / 8
	d.Data = make([]byte, 0, len(order)*w)
	for _, i := range order {
		d.Data = append(d.Data, v.Data[i*w:(i+1)*w]...)
	}
	cum := 1
	for _, l := range v.FSL {
		cum *= l.Dim
		dl := fslLayer{Dim: l.Dim}
		if l.Validity != nil {
			dl.Validity = make([]byte, (len(order)*cum+7)/8)
			for k, i := range order {
				for b := range cum {
					if lebits.Bit(l.Validity, i*cum+b) {
						lebits.SetBit(dl.Validity, k*cum+b)
					}
				}
			}
		}
		d.FSL = append(d.FSL, dl)
	}
	out := make([]byte, 0, len(order)*fullZipRowBytes(d))
	for k := range order {
		out = appendZippedRow(out, d, k, true)
	}
	return out
}

// fslNullsOnlyUnderNullRows reports whether the only null items of v (a
// fixed-size list page) are those of null rows. In a 2.3 sparse page such
// lists get no dictionary from pylance 14.0.2 (measured: 1,001 null rows and
// 999 distinct vectors of 64 floats stay zipped, 1,000 null and 1,500
// distinct f16x3 rows stay chunked), while lists with null items in valid
// rows do (a cycle of 6 f16x3 rows with null items and rows).
func fslNullsOnlyUnderNullRows(v *values) bool {
	cum := 1
	for _, l := range v.FSL {
		cum *= l.Dim
		if l.Validity == nil {
			continue
		}
		for j := 0; j < v.N; j++ {
			if v.Valid != nil && !v.Valid[j] {
				continue
			}
			for b := j * cum; b < (j+1)*cum; b++ {
				if !lebits.Bit(l.Validity, b) {
					return false
				}
			}
		}
	}
	return true
}
