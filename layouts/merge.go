package layouts

import "fmt"

// AppendNode appends the slots of src to dst (same layer shape).
func AppendNode(dst, src *PathNode) error {
	for dst != nil && src != nil {
		if dst.Kind != src.Kind {
			return fmt.Errorf("%w: pages of one column have different nesting", ErrCorrupt)
		}
		if dst.Validity != nil || src.Validity != nil {
			if dst.Validity == nil {
				dst.Validity = appendBits(nil, 0, nil, 0, dst.Len)
			}
			dst.Validity = appendBits(dst.Validity, dst.Len, src.Validity, 0, src.Len)
			dst.NullCount += src.NullCount
		}
		if dst.Kind == LayerList {
			if dst.Offsets == nil {
				dst.Offsets = []int64{0}
			}
			base := dst.Offsets[len(dst.Offsets)-1]
			for _, o := range src.Offsets[1:] {
				dst.Offsets = append(dst.Offsets, base+o)
			}
		}
		dst.Len += src.Len
		dst, src = dst.Child, src.Child
	}
	if dst != nil || src != nil {
		return fmt.Errorf("%w: pages of one column have different depths", ErrCorrupt)
	}
	return nil
}
