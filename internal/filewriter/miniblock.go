package filewriter

import (
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// encodedPage is one page ready to be written.
type encodedPage = layouts.EncodedPage

// encodeMiniBlock encodes a page as a mini-block layout
// (layouts.EncodeMiniBlock) with the level codecs the policy picks and a
// chunk buffer from the writer's pools.
func encodeMiniBlock(s *shredded, v *values, codec miniCodec, ver format.Version, maxValues int) (*encodedPage, error) {
	var repC, defC levelCodec
	if s.Rep != nil {
		repC = chooseLevelCodec(s.Rep, ver)
	}
	if s.Def != nil {
		defC = chooseLevelCodec(s.Def, ver)
	}
	data := s.sc.pool().getBytes(layouts.MiniBlockDataEstimate(&s.Shredded, &v.Values))
	return layouts.EncodeMiniBlock(&s.Shredded, &v.Values, codec, repC, defC, ver, maxValues, data)
}
