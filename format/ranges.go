package format

import (
	"fmt"
	"math/bits"
)

// Range is a byte range [Offset, Offset+Length) of a file.
type Range struct {
	Offset uint64
	Length uint64
}

// End returns Offset+Length and false if the sum overflows uint64.
func (r Range) End() (uint64, bool) {
	return checkedAdd(r.Offset, r.Length)
}

// String formats the range as "[offset, size]".
func (r Range) String() string {
	return fmt.Sprintf("[offset %d, size %d]", r.Offset, r.Length)
}

// within reports whether r lies entirely inside [lo, hi) without overflow.
func (r Range) within(lo, hi uint64) bool {
	end, ok := r.End()
	return ok && r.Offset >= lo && end <= hi
}

// checkedAdd returns a+b and false on overflow.
func checkedAdd(a, b uint64) (uint64, bool) {
	s, carry := bits.Add64(a, b, 0)
	return s, carry == 0
}

// checkedMul returns a*b and false on overflow.
func checkedMul(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0
}
