package zonestats

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2"
)

// Portable Roaring format constants.
const (
	cookieNoRun     = 12346
	cookieRun       = 12347
	noOffsetRunMin  = 4    // run-cookie bitmaps have offsets only from 4 containers
	arrayMaxCard    = 4096 // larger non-run containers are bitmaps
	bitmapContBytes = 8192
)

// errBitmap is the cause wrapped by bitmap decoding errors.
var errBitmap = errors.New("malformed roaring bitmap")

// decodeNullBitmap decodes the seed_null_bitmap text (rules N2, N3) and
// checks every member is below limit (first half of N4). It reads the
// portable format itself, strictly and in linear time, rather than trusting
// a library deserializer with unvalidated input.
func decodeNullBitmap(text string, limit uint64) (*roaring.Bitmap, error) {
	raw, err := hex.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("%w: N2: seed_null_bitmap is not hex: %v", ErrInvalidSeed, err)
	}
	bm := roaring.New()
	if len(raw) == 0 {
		return bm, nil
	}
	d := bitmapDecoder{buf: raw, limit: limit, out: bm}
	if err := d.decode(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSeed, err)
	}
	return bm, nil
}

// bitmapDecoder reads a portable Roaring bitmap from buf into out.
type bitmapDecoder struct {
	buf   []byte
	pos   int
	limit uint64
	out   *roaring.Bitmap
}

// take returns the next n bytes or an error when fewer remain.
func (d *bitmapDecoder) take(n int) ([]byte, error) {
	if n < 0 || len(d.buf)-d.pos < n {
		return nil, fmt.Errorf("N3: %w: truncated at byte %d", errBitmap, d.pos)
	}
	b := d.buf[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// header reads the cookie, container count and run flags.
func (d *bitmapDecoder) header() (n int, runFlags []byte, err error) {
	b, err := d.take(4)
	if err != nil {
		return 0, nil, err
	}
	cookie := binary.LittleEndian.Uint32(b)
	switch {
	case cookie == cookieNoRun:
		if b, err = d.take(4); err != nil {
			return 0, nil, err
		}
		c := binary.LittleEndian.Uint32(b)
		if c > 1<<16 {
			return 0, nil, fmt.Errorf("N3: %w: %d containers", errBitmap, c)
		}
		return int(c), nil, nil
	case cookie&0xFFFF == cookieRun:
		n = int(cookie>>16) + 1
		runFlags, err = d.take((n + 7) / 8)
		return n, runFlags, err
	}
	return 0, nil, fmt.Errorf("N3: %w: unknown cookie %#x", errBitmap, cookie)
}

// decode reads the whole bitmap and rejects trailing bytes.
func (d *bitmapDecoder) decode() error {
	n, runFlags, err := d.header()
	if err != nil {
		return err
	}
	desc, err := d.take(4 * n)
	if err != nil {
		return err
	}
	if runFlags == nil || n >= noOffsetRunMin {
		if _, err := d.take(4 * n); err != nil { // offsets: not needed
			return err
		}
	}
	prevKey := -1
	for i := 0; i < n; i++ {
		key := int(binary.LittleEndian.Uint16(desc[4*i:]))
		card := int(binary.LittleEndian.Uint16(desc[4*i+2:])) + 1
		if key <= prevKey {
			return fmt.Errorf("N3: %w: container keys not increasing", errBitmap)
		}
		prevKey = key
		isRun := runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0
		if err := d.container(uint32(key)<<16, card, isRun); err != nil {
			return err
		}
	}
	if d.pos != len(d.buf) {
		return fmt.Errorf("N3: %w: %d trailing bytes", errBitmap, len(d.buf)-d.pos)
	}
	return nil
}

// container reads one container whose values start at base.
func (d *bitmapDecoder) container(base uint32, card int, isRun bool) error {
	var err error
	var got int
	switch {
	case isRun:
		got, err = d.runContainer(base)
	case card > arrayMaxCard:
		got, err = d.bitmapContainer(base)
	default:
		got, err = d.arrayContainer(base, card)
	}
	if err != nil {
		return err
	}
	if got != card {
		return fmt.Errorf("N3: %w: container %d holds %d values, header says %d", errBitmap, base>>16, got, card)
	}
	return nil
}

// member checks that base+low is below the limit (rule N4).
func (d *bitmapDecoder) member(v uint32) error {
	if uint64(v) >= d.limit {
		return fmt.Errorf("N4: null bitmap member %d not below the %d rows of the seed", v, d.limit)
	}
	return nil
}

// arrayContainer reads card sorted u16 values.
func (d *bitmapDecoder) arrayContainer(base uint32, card int) (int, error) {
	b, err := d.take(2 * card)
	if err != nil {
		return 0, err
	}
	prev := -1
	for i := 0; i < card; i++ {
		low := int(binary.LittleEndian.Uint16(b[2*i:]))
		if low <= prev {
			return 0, fmt.Errorf("N3: %w: array container not strictly increasing", errBitmap)
		}
		prev = low
		if err := d.member(base | uint32(low)); err != nil {
			return 0, err
		}
		d.out.Add(base | uint32(low))
	}
	return card, nil
}

// bitmapContainer reads a 65536-bit container.
func (d *bitmapDecoder) bitmapContainer(base uint32) (int, error) {
	b, err := d.take(bitmapContBytes)
	if err != nil {
		return 0, err
	}
	got := 0
	for w := 0; w < bitmapContBytes/8; w++ {
		word := binary.LittleEndian.Uint64(b[8*w:])
		for word != 0 {
			low := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			if err := d.member(base | low); err != nil {
				return 0, err
			}
			d.out.Add(base | low)
			got++
		}
	}
	return got, nil
}

// runContainer reads sorted, non-overlapping runs.
func (d *bitmapDecoder) runContainer(base uint32) (int, error) {
	b, err := d.take(2)
	if err != nil {
		return 0, err
	}
	nr := int(binary.LittleEndian.Uint16(b))
	if b, err = d.take(4 * nr); err != nil {
		return 0, err
	}
	got, next := 0, 0
	for r := 0; r < nr; r++ {
		start := int(binary.LittleEndian.Uint16(b[4*r:]))
		length := int(binary.LittleEndian.Uint16(b[4*r+2:])) + 1
		if start < next || start+length > 1<<16 {
			return 0, fmt.Errorf("N3: %w: run container runs overlap, are unsorted or overflow", errBitmap)
		}
		next = start + length
		if err := d.member(base | uint32(start+length-1)); err != nil {
			return 0, err
		}
		d.out.AddRange(uint64(base)+uint64(start), uint64(base)+uint64(start+length))
		got += length
	}
	return got, nil
}
