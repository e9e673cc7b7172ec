package format

import "testing"

// TestMetadataSizesWithoutGlobalBuffers: the size accessors never panic or
// wrap around, whatever the footer and global buffers say (a legacy file
// has no global buffers; a zero FileMetadata has nothing at all).
func TestMetadataSizesWithoutGlobalBuffers(t *testing.T) {
	tests := []struct {
		name                 string
		m                    FileMetadata
		rng                  Range
		colMeta, data, gbufs uint64
	}{
		{name: "zero", m: FileMetadata{}, rng: Range{0, 0}},
		{name: "legacy", m: FileMetadata{FileSize: 2498, Footer: Footer{ColumnMetaStart: 522, CMOTableStart: 1899, GBOTableStart: 1899}},
			rng: Range{522, 1976}, colMeta: 1377, data: 522},
		{name: "start beyond file", m: FileMetadata{FileSize: 100, Footer: Footer{ColumnMetaStart: 500}}, rng: Range{100, 0}, data: 500},
		{name: "offset tables before column metadata", m: FileMetadata{FileSize: 100, Footer: Footer{ColumnMetaStart: 80, GBOTableStart: 20}},
			rng: Range{80, 20}, data: 80},
		{name: "v2", m: FileMetadata{FileSize: 1000, Footer: Footer{ColumnMetaStart: 700, CMOTableStart: 800, GBOTableStart: 900},
			GlobalBuffers: []Range{{600, 50}}, numGlobalBufferBytes: 50}, rng: Range{600, 400}, colMeta: 200, data: 650, gbufs: 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			if got := m.MetadataRange(); got != tc.rng || m.NumFooterBytes() != tc.rng.Length {
				t.Errorf("MetadataRange = %v, NumFooterBytes = %d, want %v", got, m.NumFooterBytes(), tc.rng)
			}
			if got := m.NumColumnMetadataBytes(); got != tc.colMeta {
				t.Errorf("NumColumnMetadataBytes = %d, want %d", got, tc.colMeta)
			}
			if got := m.NumDataBytes(); got != tc.data {
				t.Errorf("NumDataBytes = %d, want %d", got, tc.data)
			}
			if got := m.NumGlobalBufferBytes(); got != tc.gbufs {
				t.Errorf("NumGlobalBufferBytes = %d, want %d", got, tc.gbufs)
			}
		})
	}
}
