package format

import (
	"testing"
)

// TestTruncated parses every prefix of each whole testdata file as a file.
func TestTruncated(t *testing.T) {
	for _, s := range loadSeeds(t) {
		if uint64(len(s.tail)) != s.fileSize {
			continue
		}
		for n := 0; n < len(s.tail); n++ {
			b := s.tail[:n]
			m, need, err := ParseTail(uint64(n), b)
			if err == nil {
				t.Fatalf("%s: prefix of %d bytes parsed", s.name, n)
			}
			checkParseResult(t, uint64(n), b, m, need, err)
		}
	}
}

// TestShortTails parses every suffix of each seed: the result must be a
// need for exactly the missing prefix, or the full metadata.
func TestShortTails(t *testing.T) {
	for _, s := range loadSeeds(t) {
		for n := 0; n <= len(s.tail); n++ {
			tail := s.tail[len(s.tail)-n:]
			m, need, err := ParseTail(s.fileSize, tail)
			if err != nil {
				t.Fatalf("%s: suffix %d: %v", s.name, n, err)
			}
			checkParseResult(t, s.fileSize, tail, m, need, err)
		}
	}
}

// TestFooterMutations flips every footer byte to several values and
// checks that parsing never panics or violates its contract.
func TestFooterMutations(t *testing.T) {
	for _, s := range loadSeeds(t) {
		for i := len(s.tail) - FooterSize; i < len(s.tail); i++ {
			for _, v := range []byte{0, 1, 0x3f, 0x40, 0x7f, 0x80, 0xff} {
				b := append([]byte(nil), s.tail...)
				b[i] ^= v
				m, need, err := ParseTail(s.fileSize, b)
				checkParseResult(t, s.fileSize, b, m, need, err)
			}
		}
	}
}

// TestMetadataByteFlips flips each byte of the metadata region of the
// smaller seeds and checks the parse contract.
func TestMetadataByteFlips(t *testing.T) {
	for _, s := range loadSeeds(t) {
		m, _, err := ParseTail(s.fileSize, s.tail)
		if err != nil {
			t.Fatal(err)
		}
		start := len(s.tail) - int(m.MetadataRange().Length)
		for i := start; i < len(s.tail) && i < start+1500; i++ {
			for _, v := range []byte{0x01, 0x80, 0xff} {
				b := append([]byte(nil), s.tail...)
				b[i] ^= v
				m, need, err := ParseTail(s.fileSize, b)
				checkParseResult(t, s.fileSize, b, m, need, err)
			}
		}
	}
}
