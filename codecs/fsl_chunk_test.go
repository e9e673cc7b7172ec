package codecs

import "testing"

// TestFSLEncoderChunkRows: rows per mini-block chunk of fixed-size lists of
// booleans as pylance 14.0.2 cuts them (measured on its 2.1 files of
// 20 000 rows, 40 for the widest; 4096 values at most per chunk): Lance's
// chunk_fsl estimate in words of 8 rows when a row is not whole bytes,
// validity counted ⌈dim/8⌉ bytes per row.
func TestFSLEncoderChunkRows(t *testing.T) {
	for _, c := range []struct {
		dim      int
		validity bool
		want     int
	}{
		{1, false, 4096}, {3, false, 4096}, {8, false, 4096}, {13, false, 2048},
		{24, false, 2048}, {100, false, 256}, {4096, false, 8},
		{1, true, 2048}, {3, true, 2048}, {5, true, 2048}, {8, true, 2048}, {13, true, 1024},
		{24, true, 1024}, {100, true, 128}, {2040, true, 16}, {4096, true, 4},
	} {
		rows := 20_000
		v := &Values{Kind: ValFSL, N: rows, Bits: 1, Data: make([]byte, (rows*c.dim+7)/8), FSL: []FSLDim{{Dim: c.dim}}}
		if c.validity {
			v.FSL[0].Validity = make([]byte, (rows*c.dim+7)/8)
		}
		if got := (FSLEncoder{V: v}).Next(v, 0, 4096); got != c.want {
			t.Errorf("dim %d validity %v: %d rows per chunk, pylance %d", c.dim, c.validity, got, c.want)
		}
	}
}
