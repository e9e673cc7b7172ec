// Package pcodec is a pure-Go implementation of the pco (pcodec) standalone
// format: standalone version 3 wrapping format 4.1, as pco 1.0 writes it
// (spec: docs/format.md of github.com/pcodec/pcodec). Lance 2.3 stores one
// standalone file per mini-block chunk of f16/f32/f64 values (seed
// "Pcodec"); this package decodes and encodes those bytes, I/O-free.
package pcodec

import (
	"fmt"
	"math"

	"github.com/lancego/lancego/codecs"
)

// NumberType is pco's number-type byte.
type NumberType byte

// The number types of the standalone format.
const (
	U32 NumberType = 1
	U64 NumberType = 2
	I32 NumberType = 3
	I64 NumberType = 4
	F32 NumberType = 5
	F64 NumberType = 6
	U16 NumberType = 7
	I16 NumberType = 8
	F16 NumberType = 9
	U8  NumberType = 10
	I8  NumberType = 11
)

// Bits is the width of the number type in bits (0 if unknown).
func (t NumberType) Bits() uint {
	switch t {
	case U8, I8:
		return 8
	case U16, I16, F16:
		return 16
	case U32, I32, F32:
		return 32
	case U64, I64, F64:
		return 64
	}
	return 0
}

// IsFloat reports whether t is a float type.
func (t NumberType) IsFloat() bool { return t == F16 || t == F32 || t == F64 }

func (t NumberType) signed() bool { return t == I8 || t == I16 || t == I32 || t == I64 }

// String names the type like pco does.
func (t NumberType) String() string {
	names := map[NumberType]string{U32: "u32", U64: "u64", I32: "i32", I64: "i64", F32: "f32",
		F64: "f64", U16: "u16", I16: "i16", F16: "f16", U8: "u8", I8: "i8"}
	if s, ok := names[t]; ok {
		return s
	}
	return fmt.Sprintf("type(%d)", byte(t))
}

// precisionBits is the explicit mantissa width of a float type.
func (t NumberType) precisionBits() uint {
	switch t {
	case F16:
		return 10
	case F32:
		return 23
	}
	return 52
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: pcodec: %s", codecs.ErrCorrupt, fmt.Sprintf(format, args...))
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: pcodec: %s", codecs.ErrUnsupported, fmt.Sprintf(format, args...))
}

func maskOf(bits uint) uint64 {
	if bits >= 64 {
		return math.MaxUint64
	}
	return 1<<bits - 1
}

func midOf(bits uint) uint64 { return 1 << (bits - 1) }

// fromLatentOrdered maps an ordered latent back to the number's bits.
func fromLatentOrdered(t NumberType, l uint64) uint64 {
	bits := t.Bits()
	mask, sign := maskOf(bits), midOf(bits)
	switch {
	case t.IsFloat():
		if l&sign != 0 {
			return l ^ sign
		}
		return ^l & mask
	case t.signed():
		return (l ^ sign) & mask
	}
	return l & mask
}

// toLatentOrdered maps the number's bits to its order-preserving latent.
func toLatentOrdered(t NumberType, x uint64) uint64 {
	bits := t.Bits()
	mask, sign := maskOf(bits), midOf(bits)
	switch {
	case t.IsFloat():
		if x&sign != 0 {
			return ^x & mask
		}
		return x ^ sign
	case t.signed():
		return (x ^ sign) & mask
	}
	return x & mask
}
