package pcodec

// Mode numbers of the chunk metadata.
const (
	modeClassic    = 0
	modeIntMult    = 1
	modeFloatMult  = 2
	modeFloatQuant = 3
	modeDict       = 4
)

// Delta encoding numbers.
const (
	deltaNone        = 0
	deltaConsecutive = 1
	deltaLookback    = 2
	deltaConv1       = 3
)

// Limits of the format.
const (
	maxEntries      = 1 << 24
	maxWindowNLog   = 24
	batchN          = 256
	bitsNBins       = 15
	bitsDictLen     = 25
	maxConsecOrder  = 7
	standaloneMagic = "pco!"
)

// bin is one bin of a latent variable.
type bin struct {
	weight     uint32
	lower      uint64
	offsetBits uint
}

// latentVar is one latent variable's chunk metadata.
type latentVar struct {
	bits    uint // latent width
	sizeLog uint
	bins    []bin
	nodes   []ansNode
	// delta encoding applied to this variable
	delta     int
	order     int  // consecutive
	windowLog uint // lookback
	stateLog  uint // lookback
}

// stateN is the number of latents in this variable's delta state.
func (v *latentVar) stateN() int {
	switch v.delta {
	case deltaConsecutive:
		return v.order
	case deltaLookback:
		return 1 << v.stateLog
	}
	return 0
}

// chunkMeta is a parsed chunk metadata.
type chunkMeta struct {
	mode      int
	base      uint64   // IntMult/FloatMult base latent
	k         uint     // FloatQuant
	dict      []uint64 // Dict
	delta     int
	order     int
	windowLog uint
	stateLog  uint
	secDelta  bool
	vars      []*latentVar // delta (if any), primary, secondary (if any)
	hasDelta  bool
}

// readChunkMeta parses a chunk's metadata for numbers of type t.
func readChunkMeta(r *bitReader, t NumberType) (*chunkMeta, error) {
	m := &chunkMeta{mode: int(r.read(4))}
	bits := t.Bits()
	switch m.mode {
	case modeClassic:
	case modeIntMult:
		if t.IsFloat() {
			return nil, corrupt("int mult mode on %v", t)
		}
		m.base = r.read(bits)
		if m.base == 0 {
			return nil, corrupt("int mult base 0")
		}
	case modeFloatMult:
		if !t.IsFloat() {
			return nil, corrupt("float mult mode on %v", t)
		}
		m.base = r.read(bits)
		if !finiteNonzero(t, fromLatentOrdered(t, m.base)) {
			return nil, corrupt("float mult base not finite and nonzero")
		}
	case modeFloatQuant:
		if !t.IsFloat() {
			return nil, corrupt("float quant mode on %v", t)
		}
		m.k = uint(r.read(8))
		if m.k == 0 || m.k > t.precisionBits() {
			return nil, corrupt("float quant k=%d outside 1..%d", m.k, t.precisionBits())
		}
	case modeDict:
		n := r.read(bitsDictLen)
		if !r.align() {
			return nil, corrupt("nonzero bits after dict length")
		}
		if n*uint64(bits) > r.remainingBits() {
			return nil, corrupt("dict of %d values exceeds the input", n)
		}
		m.dict = make([]uint64, n)
		for i := range m.dict {
			m.dict[i] = r.read(bits)
		}
	default:
		return nil, corrupt("unknown mode %d", m.mode)
	}
	if err := m.readDelta(r); err != nil {
		return nil, err
	}
	primaryBits, secondary := bits, m.mode == modeIntMult || m.mode == modeFloatMult || m.mode == modeFloatQuant
	if m.mode == modeDict {
		primaryBits = 32
	}
	if m.hasDelta {
		v, err := readLatentVar(r, 32)
		if err != nil {
			return nil, err
		}
		for _, b := range v.bins {
			if b.lower < 1 || b.lower > 1<<m.windowLog {
				return nil, corrupt("lookback bin lower %d outside [1, %d]", b.lower, 1<<m.windowLog)
			}
		}
		m.vars = append(m.vars, v)
	}
	p, err := readLatentVar(r, primaryBits)
	if err != nil {
		return nil, err
	}
	m.setDelta(p, true)
	m.vars = append(m.vars, p)
	if secondary {
		s, err := readLatentVar(r, bits)
		if err != nil {
			return nil, err
		}
		m.setDelta(s, m.secDelta)
		m.vars = append(m.vars, s)
	}
	if !r.align() || r.overrun() {
		return nil, corrupt("chunk metadata truncated or unpadded")
	}
	return m, nil
}

func finiteNonzero(t NumberType, x uint64) bool {
	bits := t.Bits()
	expMask := (maskOf(bits) >> 1) &^ maskOf(t.precisionBits())
	absv := x & (maskOf(bits) >> 1)
	return absv != 0 && absv&expMask != expMask
}

func (m *chunkMeta) readDelta(r *bitReader) error {
	m.delta = int(r.read(4))
	switch m.delta {
	case deltaNone:
	case deltaConsecutive:
		m.order = int(r.read(3))
		if m.order == 0 {
			return corrupt("consecutive delta order 0")
		}
		m.secDelta = r.read(1) == 1
	case deltaLookback:
		m.windowLog = uint(r.read(5)) + 1
		m.stateLog = uint(r.read(4))
		if m.windowLog > maxWindowNLog || m.stateLog > m.windowLog {
			return corrupt("lookback window log %d / state log %d out of range", m.windowLog, m.stateLog)
		}
		m.secDelta = r.read(1) == 1
		m.hasDelta = true
	case deltaConv1:
		return unsupported("conv1 delta encoding (not written by pco 1.0's defaults)")
	default:
		return corrupt("unknown delta encoding %d", m.delta)
	}
	return nil
}

// setDelta copies the chunk's delta encoding onto a mode latent variable.
func (m *chunkMeta) setDelta(v *latentVar, applies bool) {
	if !applies {
		return
	}
	v.delta, v.order, v.windowLog, v.stateLog = m.delta, m.order, m.windowLog, m.stateLog
}

// readLatentVar parses one latent variable's bins and builds its decoder.
func readLatentVar(r *bitReader, bits uint) (*latentVar, error) {
	v := &latentVar{bits: bits, sizeLog: uint(r.read(4))}
	n := int(r.read(bitsNBins))
	switch {
	case v.sizeLog > maxAnsBits:
		return nil, corrupt("ANS size log %d > %d", v.sizeLog, maxAnsBits)
	case n > 1<<v.sizeLog:
		return nil, corrupt("%d bins for ANS size log %d", n, v.sizeLog)
	case n == 1 && v.sizeLog > 0:
		return nil, corrupt("one bin with ANS size log %d", v.sizeLog)
	}
	offBits := offsetBitsWidth(bits)
	if uint64(n)*uint64(v.sizeLog+bits+offBits) > r.remainingBits() {
		return nil, corrupt("%d bins exceed the input", n)
	}
	v.bins = make([]bin, n)
	weights := make([]uint32, 0, max(n, 1))
	for i := range v.bins {
		b := bin{weight: uint32(r.read(v.sizeLog)) + 1, lower: r.read(bits), offsetBits: uint(r.read(offBits))}
		if b.offsetBits > bits {
			return nil, corrupt("bin offset bits %d > %d", b.offsetBits, bits)
		}
		v.bins[i] = b
		weights = append(weights, b.weight)
	}
	if n == 0 {
		weights = append(weights, 1)
	}
	states, ok := spreadStates(v.sizeLog, weights)
	if !ok {
		return nil, corrupt("bin weights do not sum to the ANS table size %d", 1<<v.sizeLog)
	}
	v.nodes = decoderTable(v.sizeLog, weights, states)
	return v, nil
}

// offsetBitsWidth is log2(bits)+1: the width of a bin's offset-bits field.
func offsetBitsWidth(bits uint) uint {
	switch bits {
	case 8:
		return 4
	case 16:
		return 5
	case 32:
		return 6
	}
	return 7
}
