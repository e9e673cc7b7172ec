package indices

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// This file reads the maps of BurntSushi's `fst` crate (versions 2 and 3), in which Lance's
// INVERTED indices store their token dictionary (token bytes → token id). It is hand-written:
// blevesearch/vellum is a port of an older fst design with a different node encoding, header
// and footer, so it cannot read these bytes.

// errFST is wrapped by every malformed-FST error.
var errFST = errors.New("fst: malformed map")

// fstCommonInv maps a state byte's common-input index k (1-based) to the input byte k-1.
var fstCommonInv = func() [256]byte {
	var t [256]byte
	s := "te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGWUV,YKJZXQ;)(~[]$!'*@"
	n := copy(t[:], s)
	for b := 0; b < 0x20; b++ {
		t[n] = byte(b)
		n++
	}
	n += copy(t[n:], " \"#<>\\^`{|}")
	for b := 0x7f; b <= 0xff; b++ {
		t[n] = byte(b)
		n++
	}
	return t
}()

// FSTMap is a read-only fst Map over a byte slice.
type FSTMap struct {
	data    []byte // without the footer
	version uint64
	root    uint64
	numKeys uint64
}

// OpenFSTMap checks the header and footer of an fst map.
func OpenFSTMap(b []byte) (*FSTMap, error) {
	if len(b) < 32 {
		return nil, fmt.Errorf("%w: %d bytes", errFST, len(b))
	}
	v := binary.LittleEndian.Uint64(b)
	if v < 2 || v > 3 {
		return nil, fmt.Errorf("%w: version %d", errFST, v)
	}
	end := len(b)
	if v >= 3 {
		end -= 4 // crc32c, not checked (the Lance file's own framing protects the bytes)
	}
	m := &FSTMap{version: v, root: binary.LittleEndian.Uint64(b[end-8:]), numKeys: binary.LittleEndian.Uint64(b[end-16:])}
	m.data = b[:end-16]
	if m.root >= uint64(len(m.data)) || (m.root != 0 && m.root < 16) {
		return nil, fmt.Errorf("%w: root address %d of %d bytes", errFST, m.root, len(m.data))
	}
	return m, nil
}

// Len is the number of keys.
func (m *FSTMap) Len() uint64 { return m.numKeys }

type fstNode struct {
	start, end uint64 // address of the state byte; first byte of the node
	kind       byte   // 3 one-trans-next, 2 one-trans, else any
	final      bool
	ntrans     int
	ilen       uint64 // bytes of a stored input (one-trans*) or ntrans (any)
	ts, os     uint64 // pack sizes
	input      byte   // one-trans* input
	index      uint64 // 256 when the any-node has an input index
	finalOut   uint64
}

func (m *FSTMap) at(i uint64) (byte, bool) {
	if i >= uint64(len(m.data)) {
		return 0, false
	}
	return m.data[i], true
}

// uint reads n little-endian bytes at i (n ≤ 8).
func (m *FSTMap) uint(i, n uint64) (uint64, bool) {
	if n > 8 || i > uint64(len(m.data)) || n > uint64(len(m.data))-i {
		return 0, false
	}
	var v uint64
	for k := uint64(0); k < n; k++ {
		v |= uint64(m.data[i+k]) << (8 * k)
	}
	return v, true
}

// sub returns a - b, failing on underflow.
func sub(a uint64, b ...uint64) (uint64, bool) {
	for _, x := range b {
		if x > a {
			return 0, false
		}
		a -= x
	}
	return a, true
}

func (m *FSTMap) node(addr uint64) (fstNode, error) {
	n := fstNode{start: addr}
	if addr == 0 {
		n.final, n.kind = true, 0
		return n, nil
	}
	bad := func(what string) (fstNode, error) {
		return n, fmt.Errorf("%w: node at %d: %s", errFST, addr, what)
	}
	v, ok := m.at(addr)
	if !ok {
		return bad("address out of range")
	}
	n.kind = v >> 6
	switch n.kind {
	case 3, 2:
		n.ntrans = 1
		if c := v & 0x3f; c != 0 {
			n.input = fstCommonInv[c-1]
		} else {
			n.ilen = 1
			p, ok1 := sub(addr, 1)
			b, ok2 := m.at(p)
			if !ok1 || !ok2 {
				return bad("input out of range")
			}
			n.input = b
		}
		if n.kind == 3 {
			e, ok := sub(addr, n.ilen)
			if !ok || e == 0 {
				return bad("truncated")
			}
			n.end = e
			return n, nil
		}
		p, ok1 := sub(addr, n.ilen, 1)
		sz, ok2 := m.at(p)
		if !ok1 || !ok2 {
			return bad("pack sizes out of range")
		}
		n.ts, n.os = uint64(sz>>4), uint64(sz&15)
		e, ok := sub(p, n.ts, n.os)
		if !ok || n.ts > 8 || n.os > 8 {
			return bad("truncated transition")
		}
		n.end = e
		return n, nil
	}
	n.final = v&0x40 != 0
	n.ntrans = int(v & 0x3f)
	if n.ntrans == 0 {
		n.ilen = 1
		p, ok1 := sub(addr, 1)
		b, ok2 := m.at(p)
		if !ok1 || !ok2 {
			return bad("transition count out of range")
		}
		n.ntrans = int(b)
		if n.ntrans == 1 {
			n.ntrans = 256
		}
	}
	p, ok1 := sub(addr, n.ilen, 1)
	sz, ok2 := m.at(p)
	if !ok1 || !ok2 {
		return bad("pack sizes out of range")
	}
	n.ts, n.os = uint64(sz>>4), uint64(sz&15)
	if n.ts > 8 || n.os > 8 {
		return bad("pack sizes")
	}
	if m.version >= 2 && n.ntrans > 32 {
		n.index = 256
	}
	nt := uint64(n.ntrans)
	total := nt + nt*n.ts + n.index
	fo := uint64(0)
	if n.final {
		fo = n.os
	}
	e, ok := sub(p, total, nt*n.os, fo)
	if !ok {
		return bad("truncated transitions")
	}
	n.end = e
	if n.final && n.os > 0 {
		n.finalOut, _ = m.uint(e, n.os)
	}
	return n, nil
}

// base is the address just below an any-node's pack-size byte.
func (n *fstNode) base() uint64 { return n.start - n.ilen - 1 }

// trans returns transition i: input, output, target.
func (m *FSTMap) trans(n *fstNode, i int) (byte, uint64, uint64, error) {
	var in byte
	var out, delta uint64
	var ok bool
	switch n.kind {
	case 3:
		return n.input, 0, n.end - 1, nil
	case 2:
		in = n.input
		p := n.start - n.ilen - 1
		if delta, ok = m.uint(p-n.ts, n.ts); !ok {
			return 0, 0, 0, fmt.Errorf("%w: node at %d: transition", errFST, n.start)
		}
		out, _ = m.uint(p-n.ts-n.os, n.os)
	default:
		b, ui := n.base(), uint64(i)
		in, ok = m.at(b - n.index - ui - 1)
		d, ok2 := m.uint(b-n.index-uint64(n.ntrans)-(ui+1)*n.ts, n.ts)
		total := uint64(n.ntrans) + uint64(n.ntrans)*n.ts + n.index
		o, ok3 := m.uint(b-total-(ui+1)*n.os, n.os)
		if !ok || !ok2 || !ok3 {
			return 0, 0, 0, fmt.Errorf("%w: node at %d: transition %d", errFST, n.start, i)
		}
		delta, out = d, o
	}
	if delta == 0 {
		return in, out, 0, nil
	}
	t, ok := sub(n.end, delta)
	if !ok {
		return 0, 0, 0, fmt.Errorf("%w: node at %d: target before 0", errFST, n.start)
	}
	return in, out, t, nil
}

// Get returns the value of key.
func (m *FSTMap) Get(key []byte) (uint64, bool, error) {
	addr, out := m.root, uint64(0)
	for _, c := range key {
		n, err := m.node(addr)
		if err != nil {
			return 0, false, err
		}
		found := false
		for i := 0; i < n.ntrans; i++ {
			in, o, t, err := m.trans(&n, i)
			if err != nil {
				return 0, false, err
			}
			if in == c {
				if t >= addr && t != 0 {
					return 0, false, fmt.Errorf("%w: node at %d: target %d not below it", errFST, addr, t)
				}
				out += o
				addr = t
				found = true
				break
			}
		}
		if !found {
			return 0, false, nil
		}
	}
	n, err := m.node(addr)
	if err != nil || !n.final {
		return 0, false, err
	}
	return out + n.finalOut, true, nil
}

// Each calls fn for every key (in byte order not guaranteed), visiting at most limit transitions.
func (m *FSTMap) Each(limit int, fn func(key []byte, v uint64)) error {
	steps := 0
	var walk func(addr uint64, key []byte, out uint64, depth int) error
	walk = func(addr uint64, key []byte, out uint64, depth int) error {
		n, err := m.node(addr)
		if err != nil {
			return err
		}
		if n.final {
			fn(key, out+n.finalOut)
		}
		for i := 0; i < n.ntrans; i++ {
			if steps++; steps > limit || depth > 1<<12 {
				return fmt.Errorf("%w: more than %d transitions", errFST, limit)
			}
			in, o, t, err := m.trans(&n, i)
			if err != nil {
				return err
			}
			if t >= addr && t != 0 {
				return fmt.Errorf("%w: node at %d: target %d not below it", errFST, addr, t)
			}
			if err := walk(t, append(key, in), out+o, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(m.root, nil, 0, 0)
}
