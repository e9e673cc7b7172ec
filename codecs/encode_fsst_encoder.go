package codecs

import "encoding/binary"

// FSSTEncoder compresses strings with a fixed symbol table (greedy longest
// match; bytes no symbol covers are escaped). It is safe for concurrent use
// once built.
type FSSTEncoder struct {
	t *FSSTTable
	// long holds the symbols of 3+ bytes, each in one of the two slots
	// of its 3-byte prefix (cuckoo hashing; at most one symbol per prefix,
	// so at most one of the two matches a string).
	long *[fsstLongSlots]uint16
	syms *[256]fsstLongEnt
	// short gives, per first two bytes, the 2-byte symbol or else the
	// 1-byte symbol or escape of the first byte (fsstShort* bits); one is
	// the same for a single remaining byte.
	short *[1 << 16]uint16
	one   [256]uint16
	// slow is the plain matcher, used when the symbols did not fit the
	// long table (code maps its symbols to table codes); nil otherwise.
	mul  uint64 // hash multiplier of long
	slow *fsstMatcher
	code []byte
	// scratch takes back the tables on Release (nil: they are dropped).
	scratch *FSSTScratch
}

// fsstLongSlots is the number of slots of the encoder's long-symbol table
// (4x the symbols).
const fsstLongSlots = 4096

// fsstLongEnt is one long symbol of the encoder: its bytes, the mask of
// its length and its compression step (fsstStep). Empty slots have length
// 9: they never match.
type fsstLongEnt struct {
	val  uint64
	mask uint64
	step uint32
}

// longSymbol returns the long-table entry for the string starting with the
// 8 bytes w: the symbol in the first slot of w's 3-byte prefix, or the one
// in its second slot when the first is marked fsstAlt and the second
// matches. The caller still checks that the entry matches w.
func longSymbol(long *[fsstLongSlots]uint16, syms *[256]fsstLongEnt, mul, w uint64) *fsstLongEnt {
	h := (w & 0xFFFFFF) * mul
	x := long[h>>52&(fsstLongSlots-1)]
	if x&fsstAlt != 0 {
		if y := long[h>>40&(fsstLongSlots-1)]; y&0xFF != 0 {
			if l := &syms[y&0xFF]; w&l.mask == l.val {
				x = y
			}
		}
	}
	return &syms[x&0xFF]
}

// fsstEmptyStep is the step of an empty long slot.
const fsstEmptyStep = 9 << 8

// Bits of an FSSTEncoder short entry: the output code in the low byte, the
// input length above it, and an escape flag (output the code 255, then
// the byte).
const (
	fsstShortLen = 8
	fsstShortEsc = 1 << 12
)

// fsstStep packs one compression step: output code, input bytes consumed
// and output bytes produced.
func fsstStep(code byte, in, out int) uint32 { return uint32(code) | uint32(in)<<8 | uint32(out)<<16 }

// longSlots are the two slots of a 3-byte prefix for hash multiplier mul:
// two bit fields of one product.
func longSlots(k, mul uint64) (uint64, uint64) {
	p := k * mul
	return p >> 52, p >> 40 & (fsstLongSlots - 1)
}

// fsstHashMuls are the hash multipliers tried, in order, until every long
// symbol has a slot.
var fsstHashMuls = [...]uint64{
	0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB,
	0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x87C37B91114253D5, 0x4CF5AD432745937F,
	0xD6E8FEB86659FD93, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB, 0x8EBC6AF09C88C6E3,
	0x589965CC75374CC3, 0x1D8E4E27C47D124F, 0x2545F4914F6CDD1D, 0x9FB21C651E98DF25,
}

// fsstAlt flags a long slot whose key may also sit in its second slot.
const fsstAlt = 1 << 15

// NewFSSTEncoder prepares t for compression. Symbols of 3+ bytes sharing a
// 3-byte prefix with an earlier one are never emitted (still correct). Its
// tables are allocated afresh; FSSTScratch.NewEncoder reuses them.
func NewFSSTEncoder(t *FSSTTable) *FSSTEncoder {
	var fresh *FSSTScratch
	return fresh.NewEncoder(t)
}

// NewEncoder is NewFSSTEncoder (same output) with the encoder's tables
// taken from s; Release gives them back to s. A nil s allocates them
// afresh.
func (s *FSSTScratch) NewEncoder(t *FSSTTable) *FSSTEncoder {
	e := &FSSTEncoder{t: t, scratch: s}
	if !t.Compressed {
		return e
	}
	m := s.matcher()
	var code []byte // table code of matcher symbol i
	for i := 0; i < t.NumSymbols && i < fsstMaxSymbols; i++ {
		if t.Lens[i] < 1 || t.Lens[i] > 8 {
			continue
		}
		s := fsstSym{val: t.Symbols[i], n: t.Lens[i]}
		if s.n < 8 {
			s.val &= 1<<(8*s.n) - 1
		}
		if m.add(s) {
			code = append(code, byte(i))
		}
	}
	// The tables below reproduce m.longest: the long symbol of the 3-byte
	// prefix when it matches, else the 2-byte symbol, else the byte.
	for b := range e.one {
		if c := int(m.one[b]); c >= fsstCodeBase {
			e.one[b] = uint16(code[c-fsstCodeBase]) | 1<<fsstShortLen
		} else {
			e.one[b] = fsstEscape | 1<<fsstShortLen | fsstShortEsc
		}
	}
	e.short = s.short() // every entry is set below
	for p := range e.short {
		if c := int(m.two[p]); c >= 0 {
			e.short[p] = uint16(code[c-fsstCodeBase]) | 2<<fsstShortLen
		} else {
			e.short[p] = e.one[p&0xFF]
		}
	}
	for _, mul := range fsstHashMuls {
		if e.fill(m, code, mul) {
			s.putMatcher(m)
			return e
		}
	}
	e.slow, e.code = m, code
	return e
}

// fill builds the long table with hash multipliers m1, m2: each symbol in
// the first slot of its prefix, or else in the second one (flagging the
// first); it reports false when both are taken.
func (e *FSSTEncoder) fill(m *fsstMatcher, code []byte, mul uint64) bool {
	e.mul = mul
	e.long = new([fsstLongSlots]uint16)
	e.syms = new([256]fsstLongEnt)
	e.syms[0] = fsstLongEnt{val: 1, step: fsstEmptyStep} // index 0: no symbol, never matches
	nsym := 1
	for i, k := range m.threeKey {
		if k == fsstNoKey {
			continue
		}
		c := int(m.threeCode[i])
		s := m.syms[c-fsstCodeBase]
		mask := ^uint64(0)
		if s.n < 8 {
			mask = 1<<(8*s.n) - 1
		}
		e.syms[nsym] = fsstLongEnt{val: s.val, mask: mask, step: fsstStep(code[c-fsstCodeBase], int(s.n), 1)}
		a, b := longSlots(uint64(k), mul)
		switch {
		case e.long[a]&0xFF == 0:
			e.long[a] |= uint16(nsym)
		case e.long[b]&0xFF == 0:
			e.long[b] |= uint16(nsym)
			e.long[a] |= fsstAlt
		default:
			return false
		}
		nsym++
	}
	return true
}

// Release gives the encoder's tables back to the FSSTScratch it came from
// (FSSTScratch.NewEncoder) for reuse; e must not be used after. It does
// nothing more for an encoder from NewFSSTEncoder.
func (e *FSSTEncoder) Release() {
	if e.short != nil {
		e.scratch.putShort(e.short)
		e.short = nil
	}
}

// Compress appends the compressed form of src to dst.
func (e *FSSTEncoder) Compress(dst, src []byte) []byte {
	if !e.t.Compressed {
		return append(dst, src...)
	}
	var ends [1]uint64
	return e.CompressValues(dst, src, []uint64{0, uint64(len(src))}, ends[:])
}

// CompressValues appends the compressed form of every string
// data[offsets[i]:offsets[i+1]] to dst, one after the other, and sets
// ends[i] to the length of dst after string i (len(ends) ≥
// len(offsets)-1). data may extend past the strings.
func (e *FSSTEncoder) CompressValues(dst, data []byte, offsets, ends []uint64) []byte {
	n := len(offsets) - 1
	if n <= 0 {
		return dst
	}
	ends = ends[:n]
	if !e.t.Compressed {
		for i := range ends {
			dst = append(dst, data[offsets[i]:offsets[i+1]]...)
			ends[i] = uint64(len(dst))
		}
		return dst
	}
	if e.slow != nil {
		for i := range ends {
			dst = e.compressSlow(dst, data[offsets[i]:offsets[i+1]])
			ends[i] = uint64(len(dst))
		}
		return dst
	}
	// Every input byte yields at most two output bytes; each step may
	// write one byte past its output.
	in := int(offsets[n] - offsets[0])
	if n >= 4*fsstLanes && in >= fsstLaneMinBytes {
		return e.compressLanes(dst, data, offsets, ends)
	}
	dst = fsstGrow(dst, 2*in+1)
	out := dst[:cap(dst)]
	o := len(dst)
	for i := range ends {
		o = e.compressOne(out, o, data, int(offsets[i]), int(offsets[i+1]))
		ends[i] = uint64(o)
	}
	return out[:o]
}

// compressSlow compresses src with the plain matcher.
func (e *FSSTEncoder) compressSlow(dst, src []byte) []byte {
	for pos := 0; pos < len(src); {
		c, n := e.slow.longest(src[pos:])
		if c < fsstCodeBase {
			dst = append(dst, fsstEscape, src[pos])
		} else {
			dst = append(dst, e.code[c-fsstCodeBase])
		}
		pos += n
	}
	return dst
}

// compressOne compresses the string data[pos:end] into out at o and
// returns the new output position.
func (e *FSSTEncoder) compressOne(out []byte, o int, data []byte, pos, end int) int {
	var st fsstLanesState
	st.pos[0], st.fast[0], st.o[0] = pos, end-7, o
	e.runLanes(&st, 1, out, data)
	return e.compressTail(out, st.o[0], data, st.pos[0], end)
}

// compressTail compresses data[pos:end] (its last bytes, where fewer
// than 8 remain) into out at o and returns the new output position.
func (e *FSSTEncoder) compressTail(out []byte, o int, data []byte, pos, end int) int {
	short, one, long, syms, mul := e.short, &e.one, e.long, e.syms, e.mul
	for pos < end {
		var w uint64
		if pos+8 <= len(data) {
			w = binary.LittleEndian.Uint64(data[pos:])
		} else {
			var b [8]byte
			copy(b[:], data[pos:end])
			w = binary.LittleEndian.Uint64(b[:])
		}
		rem := end - pos
		// as in runLanes, with symbols limited to rem bytes
		l := longSymbol(long, syms, mul, w)
		sh := uint32(short[w&0xFFFF])
		if rem < 2 {
			sh = uint32(one[w&0xFF])
		}
		step := sh&0xFFF | (1+sh>>12)<<16
		if sl := l.step; w&l.mask == l.val && int(sl>>8&0xFF) <= rem {
			step = sl
		}
		out[o] = byte(step)
		out[o+1] = byte(w)
		o += int(step >> 16)
		pos += int(step >> 8 & 0xFF)
	}
	return o
}

// fsstLanes is the number of strings compressed in step with each other:
// one string's steps depend on each other (each position comes from the
// previous match), so interleaving independent strings keeps the CPU
// busy while a step waits for its table lookups.
const fsstLanes = 4

// fsstLaneMinBytes is the input size below which lanes are not used.
const fsstLaneMinBytes = 4096

// compressLanes is CompressValues for many strings: the strings are cut
// into fsstLanes runs of about equal size, compressed in step into
// separate regions of the output, which are then moved together.
func (e *FSSTEncoder) compressLanes(dst, data []byte, offsets, ends []uint64) []byte {
	n := len(offsets) - 1
	in := int(offsets[n] - offsets[0])
	o0 := len(dst)
	dst = fsstGrow(dst, 2*in+fsstLanes)
	out := dst[:cap(dst)]
	// Lane k compresses strings [from[k], last[k]) into out from start[k]
	// to stop[k]; cur[k] is the string under way (from[k]-1 before the
	// first). The running lanes occupy the first active slots of st;
	// lane[s] is the lane in slot s.
	var cur, from, last, start, stop, lane [fsstLanes]int
	var st fsstLanesState
	first := 0
	for k := 0; k < fsstLanes; k++ {
		end := n
		if k < fsstLanes-1 {
			target := offsets[0] + uint64(in)*uint64(k+1)/fsstLanes
			end = first
			for end < n && offsets[end+1] <= target {
				end++
			}
		}
		// room for two bytes per input byte before the lane's strings,
		// plus one spare byte per earlier lane
		start[k] = o0 + 2*int(offsets[first]-offsets[0]) + k
		from[k], cur[k], last[k], lane[k] = first, first-1, end, k
		st.o[k] = start[k]
		first = end
	}
	for active := fsstLanes; active > 0; {
		e.runLanes(&st, active, out, data)
		for s := 0; s < active; {
			if st.pos[s] < st.fast[s] {
				s++
				continue
			}
			k := lane[s]
			if i := cur[k]; i >= from[k] {
				// finish the current string: its last bytes, its end
				st.o[s] = e.compressTail(out, st.o[s], data, st.pos[s], st.end[s])
				ends[i] = uint64(st.o[s])
			}
			cur[k]++
			if i := cur[k]; i < last[k] {
				// next string (checked again: it may be all tail)
				st.pos[s], st.end[s] = int(offsets[i]), int(offsets[i+1])
				st.fast[s] = st.end[s] - 7
				continue
			}
			// lane done: the last running lane takes its slot
			stop[k] = st.o[s]
			active--
			st.o[s], st.pos[s], st.end[s], st.fast[s] = st.o[active], st.pos[active], st.end[active], st.fast[active]
			lane[s] = lane[active]
		}
	}
	// move the regions together
	at := start[0]
	for k := 0; k < fsstLanes; k++ {
		shift := start[k] - at
		if shift > 0 {
			copy(out[at:], out[start[k]:stop[k]])
			for i := from[k]; i < last[k]; i++ {
				ends[i] -= uint64(shift)
			}
		}
		at += stop[k] - start[k]
	}
	return out[:at]
}

// fsstLanesState is the input position, string end, end of the fast
// region (8 bytes of the string left) and output position of each running
// lane.
type fsstLanesState struct {
	pos, end, fast, o [fsstLanes]int
}

// runLanes compresses with the first active lanes of st in step until one
// of them reaches the end of its fast region, where fewer than 8 bytes of
// its string are left.
func (e *FSSTEncoder) runLanes(st *fsstLanesState, active int, out, data []byte) {
	short, long, syms, mul := e.short, e.long, e.syms, e.mul
	active = min(active, fsstLanes)
	for {
		for k := 0; k < active; k++ {
			p := st.pos[k]
			if p >= st.fast[k] {
				return
			}
			w := binary.LittleEndian.Uint64(data[p:])
			// Branch-free choice between the long symbol of the prefix
			// and the short entry (the spare byte written after a code is
			// the literal of an escape, overwritten otherwise).
			l := longSymbol(long, syms, mul, w)
			sh := uint32(short[w&0xFFFF])
			step := sh&0xFFF | (1+sh>>12)<<16
			if sl := l.step; w&l.mask == l.val {
				step = sl
			}
			q := st.o[k]
			o2 := out[q : q+2 : q+2] // one bounds check for both bytes
			o2[0] = byte(step)
			o2[1] = byte(w)
			st.o[k] = q + int(step>>16)
			st.pos[k] = p + int(step>>8&0xFF)
		}
	}
}

// fsstGrow returns dst with room for n more bytes.
func fsstGrow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), max(len(dst)+n, 2*cap(dst)))
	copy(out, dst)
	return out
}
