package codecs

import "encoding/binary"

// LZ4 block compression with the choices of the reference compressor's
// default mode (liblz4's LZ4_compress_default, acceleration 1), which Lance
// calls through the lz4 crate: the same hash tables, skipping, backward
// extension and end rules, so that a General(lz4) buffer we write is the
// buffer Lance writes for the same bytes. pierrec/lz4 decodes them; its own
// compressor finds other matches (fewer in small inputs).
//
// The rules, from the LZ4 block format and the reference compressor:
//   - inputs under 13 bytes are all literals; the last 5 bytes are always
//     literals and no match starts within the last 12;
//   - inputs under 64 KiB + 11 bytes hash 4 bytes into 2^13 16-bit
//     positions, larger ones 5 bytes into 2^12 32-bit positions, and then
//     ignore candidates more than 65,535 bytes back;
//   - the search steps one byte at a time for 64 probes, then one more
//     byte per 64 probes; a match found is extended backwards over the
//     pending literals and forwards up to the last 5 bytes;
//   - after a match, the position two bytes before its end is hashed and
//     the match end is tried at once (a literal-free sequence on success).

const (
	lz4MinMatch     = 4
	lz4LastLiterals = 5
	lz4MFLimit      = 12
	lz4MinLength    = lz4MFLimit + 1
	lz4SkipTrigger  = 6
	lz4Limit64K     = 65536 + lz4MFLimit - 1
	lz4MaxDistance  = 65535
	lz4HashLog      = 12
	lz4RunMask      = 15
	lz4MLMask       = 15
)

// lz4Hasher hashes the sequence at a position into a table index.
type lz4Hasher struct {
	small bool // 16-bit table of inputs under lz4Limit64K
}

func (h lz4Hasher) hash(src []byte, p int) uint32 {
	if h.small {
		seq := binary.LittleEndian.Uint32(src[p:])
		return (seq * 2654435761) >> (32 - (lz4HashLog + 1))
	}
	seq := binary.LittleEndian.Uint64(src[p:])
	return uint32(((seq << 24) * 889523592379) >> (64 - lz4HashLog))
}

// lz4BlockBound is the largest block AppendLZ4Block can write for n input
// bytes.
func lz4BlockBound(n int) int { return n + n/255 + 16 }

// AppendLZ4Block appends src compressed as one LZ4 block (no size prefix)
// the way the reference compressor's default mode compresses it.
func AppendLZ4Block(dst, src []byte) []byte {
	n := len(src)
	if n == 0 {
		return append(dst, 0)
	}
	w := lz4Writer{out: dst}
	if n < lz4MinLength {
		return w.lastLiterals(src, 0)
	}
	h := lz4Hasher{small: n < lz4Limit64K}
	table := make([]uint32, 1<<(lz4HashLog+1))
	mfLimitPlusOne := n - lz4MFLimit + 1
	matchLimit := n - lz4LastLiterals
	anchor, ip := 0, 0
	table[h.hash(src, ip)] = uint32(ip)
	ip++
	forwardH := h.hash(src, ip)
	for {
		var match int
		var ok bool
		ip, match, _, ok = lz4Search(src, h, table, ip, forwardH, mfLimitPlusOne)
		if !ok {
			break
		}
		for ip > anchor && match > 0 && src[ip-1] == src[match-1] {
			ip, match = ip-1, match-1
		}
		token := w.literals(src[anchor:ip])
		for {
			ip = w.match(src, token, ip, match, matchLimit)
			anchor = ip
			if ip >= mfLimitPlusOne {
				return w.lastLiterals(src, anchor)
			}
			table[h.hash(src, ip-2)] = uint32(ip - 2)
			hv := h.hash(src, ip)
			cand := int(table[hv])
			table[hv] = uint32(ip)
			if (!h.small && cand+lz4MaxDistance < ip) || !lz4Equal4(src, cand, ip) {
				break
			}
			match = cand
			token = w.literals(nil) // a match right after a match
		}
		ip++
		forwardH = h.hash(src, ip)
	}
	return w.lastLiterals(src, anchor)
}

// lz4Search probes forward from ip for a 4-byte match, inserting each
// probed position; it returns the match (ip, its earlier copy), the hash
// of the next probe, and false when the probes pass mfLimitPlusOne.
func lz4Search(src []byte, h lz4Hasher, table []uint32, ip int, forwardH uint32, mfLimitPlusOne int) (int, int, uint32, bool) {
	forwardIP, step, probes := ip, 1, 1<<lz4SkipTrigger
	for {
		hv := forwardH
		ip = forwardIP
		forwardIP += step
		step = probes >> lz4SkipTrigger
		probes++
		if forwardIP > mfLimitPlusOne {
			return ip, 0, 0, false
		}
		match := int(table[hv])
		forwardH = h.hash(src, forwardIP)
		table[hv] = uint32(ip)
		if !h.small && match+lz4MaxDistance < ip {
			continue
		}
		if lz4Equal4(src, match, ip) {
			return ip, match, forwardH, true
		}
	}
}

func lz4Equal4(src []byte, a, b int) bool {
	return binary.LittleEndian.Uint32(src[a:]) == binary.LittleEndian.Uint32(src[b:])
}

// lz4Writer appends sequences.
type lz4Writer struct{ out []byte }

// literals writes a token with lits as its literals and returns the
// token's index (its match length is added by match).
func (w *lz4Writer) literals(lits []byte) int {
	token := len(w.out)
	n := len(lits)
	if n >= lz4RunMask {
		w.out = append(w.out, lz4RunMask<<4)
		w.out = appendLZ4Length(w.out, n-lz4RunMask)
	} else {
		w.out = append(w.out, byte(n<<4))
	}
	w.out = append(w.out, lits...)
	return token
}

// match writes the offset and length of the match of ip at match (token
// at index token) and returns the position after it.
func (w *lz4Writer) match(src []byte, token, ip, match, matchLimit int) int {
	w.out = binary.LittleEndian.AppendUint16(w.out, uint16(ip-match))
	n := 0
	for ip+lz4MinMatch+n < matchLimit && src[ip+lz4MinMatch+n] == src[match+lz4MinMatch+n] {
		n++
	}
	if n >= lz4MLMask {
		w.out[token] += lz4MLMask
		w.out = appendLZ4Length(w.out, n-lz4MLMask)
	} else {
		w.out[token] += byte(n)
	}
	return ip + lz4MinMatch + n
}

// lastLiterals writes src[anchor:] as the block's final literals.
func (w *lz4Writer) lastLiterals(src []byte, anchor int) []byte {
	w.literals(src[anchor:])
	return w.out
}

// appendLZ4Length appends a length continuation: 255s, then the rest.
func appendLZ4Length(dst []byte, n int) []byte {
	for ; n >= 255; n -= 255 {
		dst = append(dst, 255)
	}
	return append(dst, byte(n))
}
