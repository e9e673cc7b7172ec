package indices

import (
	"encoding/binary"
	"testing"
)

// seedRoaring is a portable roaring bitmap {0, 1, 2} (cookie 12346).
var seedRoaring = []byte{0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0x10, 0, 0, 0, 0, 0, 1, 0, 2, 0}

// seedIndexMetadata is an IndexMetadata as pylance writes it (id_idx).
func seedIndexMetadata() []byte {
	b := []byte{0x0a, 0x12, 0x0a, 0x10}
	b = append(b, make([]byte, 16)...)
	b = append(b, 0x12, 0x01, 0x00, 0x1a, 0x06)
	b = append(b, "id_idx"...)
	b = append(b, 0x20, 0x01, 0x2a, byte(len(seedRoaring)))
	b = append(b, seedRoaring...)
	url := "/lance.table.BTreeIndexDetails"
	b = append(b, 0x32, byte(len(url)+2), 0x0a, byte(len(url)))
	b = append(b, url...)
	b = append(b, 0x38, 0x00, 0x52, 0x05, 0x0a, 0x01, 'p', 0x10, 0x07)
	return b
}

func FuzzDecodeIndexSection(f *testing.F) {
	m := seedIndexMetadata()
	sec := append([]byte{0x0a, byte(len(m))}, m...)
	f.Add(sec)
	f.Add(m)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := DecodeIndexSection(b)
		if err != nil {
			return
		}
		for i := range ms {
			_ = ms[i].Type()
			_ = ms[i].Fragments()
			_ = ms[i].UUIDString()
		}
		_ = Group(ms)
		file := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
		if _, err := ParseIndexSection(append(file, b...), 0); err != nil {
			t.Fatalf("framed section fails: %v", err)
		}
	})
}

func FuzzRowSets(f *testing.F) {
	tm := binary.LittleEndian.AppendUint32(nil, 2)
	tm = binary.LittleEndian.AppendUint32(tm, 0)
	tm = binary.LittleEndian.AppendUint32(tm, uint32(len(seedRoaring)))
	tm = append(tm, seedRoaring...)
	tm = binary.LittleEndian.AppendUint32(tm, 5)
	tm = binary.LittleEndian.AppendUint32(tm, 0)
	tree := binary.LittleEndian.AppendUint64(nil, 1)
	tree = binary.LittleEndian.AppendUint32(tree, 0)
	tree = append(tree, seedRoaring...)
	f.Add(seedRoaring)
	f.Add(tm)
	f.Add(tree)
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if bm, _, err := DecodeRoaring(b); err == nil {
			_ = bm.GetCardinality()
		}
		if s, err := DecodeRowAddrTreeMap(b); err == nil {
			_ = s.Contains(5 << 32)
		}
		if bm, err := DecodeRoaringTreemap(b); err == nil {
			_ = bm.GetCardinality()
		}
	})
}

func FuzzVectorDetails(f *testing.F) {
	f.Add([]byte{0x08, 0x01, 0x22, 0x04, 0x08, 0x08, 0x10, 0x04})
	f.Add([]byte{0x1a, 0x00, 0x2a, 0x02, 0x08, 0x08})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = VectorDetailsOf(b).Type()
	})
}
