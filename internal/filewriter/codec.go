package filewriter

import (
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/lebits"
)

// The mini-block value encoders live beside their decoders in package
// codecs (codecs.MiniBlockEncoder); policy.go chooses one per page.

// miniCodec encodes values chunk by chunk for a mini-block page.
type miniCodec = codecs.MiniBlockEncoder

// sliceBits copies bits [start, end) of an LSB-first bitmap to bit 0.
func sliceBits(src []byte, start, end int) []byte {
	out := make([]byte, (end-start+7)/8)
	lebits.CopyRange(out, src, start, end)
	return out
}
