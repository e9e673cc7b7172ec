package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// DecodeIndices is DecodeRows for a page with a dictionary that appends
// the rows' dictionary indices (the page's index words, as stored) to vals
// instead of the dictionary values they name, for a reader that hands
// out the page's Dictionary and the indices as an Arrow dictionary array.
// Bit-packed or flat index chunks wholly inside [from, to) are unpacked
// straight into vals' buffer, as DecodeRows does for integer pages. The
// indices are not checked against the dictionary here: the caller does,
// once per batch.
func (p *MiniBlockPage) DecodeIndices(span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo *ChunkMemo) error {
	if p.Dictionary == nil {
		return fmt.Errorf("%w: dictionary indices asked of a page without a dictionary", ErrCorrupt)
	}
	q := *p
	q.Dictionary = nil
	return q.DecodeRows(span, chunks, from, to, lv, vals, memo)
}

// DictionaryValues reports whether the page's dictionary holds
// variable-width values (strings or binary), the dictionaries a reader can
// return without expanding them.
func (p *MiniBlockPage) DictionaryValues() bool {
	return p.Dictionary != nil && p.Dictionary.Kind == codecs.KindVariable
}
