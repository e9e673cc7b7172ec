package zonestats

import (
	"encoding/binary"
	"errors"
)

// errFlatbuffer reports an IPC footer whose flatbuffer does not fit.
var errFlatbuffer = errors.New("IPC footer flatbuffer is out of bounds")

// checkIPCFooter walks the IPC file footer's flatbuffer (schema fields,
// their children and metadata, and the block vectors) and checks that
// every vector lies inside the footer. arrow-go allocates by these
// untrusted lengths before reading, so a corrupt seed could otherwise
// exhaust memory.
func checkIPCFooter(data []byte) error {
	n := len(data)
	if n < 10 {
		return errFlatbuffer
	}
	flen := int64(int32(binary.LittleEndian.Uint32(data[n-10:])))
	if flen <= 0 || flen > int64(n-10) {
		return errFlatbuffer
	}
	fb := flatbuf(data[int64(n-10)-flen : n-10])
	root, ok := fb.u32(0)
	if !ok {
		return errFlatbuffer
	}
	footer := int(root)
	for _, f := range []int{2, 3} { // dictionaries, recordBatches: Block structs
		if !fb.vectorOK(footer, f, 24) {
			return errFlatbuffer
		}
	}
	schema, ok := fb.table(footer, 1)
	if ok && !fb.schemaOK(schema) {
		return errFlatbuffer
	}
	return nil
}

// flatbuf is a flatbuffer with bounds-checked accessors.
type flatbuf []byte

func (b flatbuf) u32(pos int) (uint32, bool) {
	if pos < 0 || pos > len(b)-4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b[pos:]), true
}

// field returns the position of field f of the table at t (0 = absent).
func (b flatbuf) field(t, f int) (int, bool) {
	so, ok := b.u32(t)
	if !ok {
		return 0, false
	}
	vt := t - int(int32(so))
	if vt < 0 || vt > len(b)-4 {
		return 0, false
	}
	vsize := int(binary.LittleEndian.Uint16(b[vt:]))
	at := 4 + 2*f
	if at+2 > vsize {
		return 0, true
	}
	if vt+at+2 > len(b) {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(b[vt+at:]))
	if off == 0 {
		return 0, true
	}
	return t + off, true
}

// deref follows the uoffset of field f; 0 when absent.
func (b flatbuf) deref(t, f int) (int, bool) {
	p, ok := b.field(t, f)
	if !ok || p == 0 {
		return 0, ok
	}
	o, ok := b.u32(p)
	if !ok || int64(p)+int64(o) >= int64(len(b)) {
		return 0, false
	}
	return p + int(o), true
}

// table returns the position of the sub-table in field f.
func (b flatbuf) table(t, f int) (int, bool) {
	p, ok := b.deref(t, f)
	return p, ok && p != 0
}

// vector returns the element start and count of the vector in field f
// after checking that count elements of size bytes fit.
func (b flatbuf) vector(t, f, size int) (start, count int, ok bool) {
	p, ok := b.deref(t, f)
	if !ok || p == 0 {
		return 0, 0, ok
	}
	c, ok := b.u32(p)
	if !ok || int64(p)+4+int64(c)*int64(size) > int64(len(b)) {
		return 0, 0, false
	}
	return p + 4, int(c), true
}

func (b flatbuf) vectorOK(t, f, size int) bool {
	_, _, ok := b.vector(t, f, size)
	return ok
}

// schemaOK checks a Schema table: fields (1), custom_metadata (2),
// features (3).
func (b flatbuf) schemaOK(s int) bool {
	return b.vectorOK(s, 2, 4) && b.vectorOK(s, 3, 8) && b.fieldsOK(s, 1, 0)
}

// fieldsOK checks the vector of Field tables in field f of table t.
func (b flatbuf) fieldsOK(t, f, depth int) bool {
	start, n, ok := b.vector(t, f, 4)
	if !ok || depth > 64 {
		return false
	}
	for k := 0; k < n; k++ {
		o, _ := b.u32(start + 4*k)
		ft := start + 4*k + int(o)
		if ft >= len(b) || !b.vectorOK(ft, 6, 4) || !b.fieldsOK(ft, 5, depth+1) {
			return false
		}
	}
	return true
}
