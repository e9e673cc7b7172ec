package indices

import (
	"bytes"
	"encoding/binary"
	"slices"
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
			// what we encode decodes to the same entry
			enc, err := ms[i].Encode()
			if err != nil {
				t.Fatalf("entry %d: encode: %v", i, err)
			}
			back, err := DecodeIndexMetadata(enc)
			if err != nil {
				t.Fatalf("entry %d: our encoding does not decode: %v", i, err)
			}
			if !sameMetadata(&ms[i], back) {
				t.Fatalf("entry %d: round trip %+v -> %+v", i, ms[i], *back)
			}
		}
		_ = Group(ms)
		file := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
		if _, err := ParseIndexSection(append(file, b...), 0); err != nil {
			t.Fatalf("framed section fails: %v", err)
		}
	})
}

// sameMetadata compares two IndexMetadata (bitmaps by content; an empty
// details value equals none).
func sameMetadata(a, b *IndexMetadata) bool {
	bmEq := (a.FragmentBitmap == nil) == (b.FragmentBitmap == nil) && (a.FragmentBitmap == nil || a.FragmentBitmap.Equals(b.FragmentBitmap))
	return bmEq && a.UUID == b.UUID && slices.Equal(a.Fields, b.Fields) && a.Name == b.Name && a.DatasetVersion == b.DatasetVersion &&
		a.DetailsTypeURL == b.DetailsTypeURL && bytes.Equal(a.Details, b.Details) && a.IndexVersion == b.IndexVersion &&
		a.CreatedAtMillis == b.CreatedAtMillis && (a.BaseID == nil) == (b.BaseID == nil) && (a.BaseID == nil || *a.BaseID == *b.BaseID) &&
		slices.Equal(a.Files, b.Files) && slices.Equal(a.CoveringFields, b.CoveringFields)
}

// TestEncodeIndexMetadataMatchesPylance: our encoding of pylance's entry
// is pylance's bytes.
func TestEncodeIndexMetadataMatchesPylance(t *testing.T) {
	raw := seedIndexMetadata()
	m, err := DecodeIndexMetadata(raw)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(enc, raw) {
		t.Fatalf("encoded\n%x\npylance's\n%x", enc, raw)
	}
}

// FuzzAppendRowAddrTreeMap: any ascending address set serializes to a
// RowAddrTreeMap that decodes to the same set.
func FuzzAppendRowAddrTreeMap(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 0, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		var addrs []uint64
		var cur uint64
		for i := 0; i+1 < len(b) && len(addrs) < 5000; i += 2 {
			cur += uint64(b[i])<<(b[i+1]%40) + 1
			addrs = append(addrs, cur)
		}
		enc, err := AppendRowAddrTreeMap(nil, addrs)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := DecodeRowAddrTreeMap(enc)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		for _, e := range tm.Entries {
			for _, r := range e.Rows.ToArray() {
				got = append(got, uint64(e.Fragment)<<32|uint64(r))
			}
		}
		if !slices.Equal(got, addrs) {
			t.Fatalf("round trip of %d addresses gives %d", len(addrs), len(got))
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
