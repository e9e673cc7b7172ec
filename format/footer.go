package format

import (
	"encoding/binary"
	"fmt"
)

// FooterSize is the size in bytes of the fixed footer at the end of every
// Lance v2 file.
const FooterSize = 40

// Magic is the 4-byte marker that ends every Lance file.
const Magic = "LANC"

// offsetEntrySize is the size of one (position, length) entry of the column
// metadata offset (CMO) and global buffer offset (GBO) tables.
const offsetEntrySize = 16

// pageAlignment is the alignment of page and global buffers in 2.1+ files.
const pageAlignment = 64

// Version is a normalized Lance file format version. Its value is
// major<<16 | minor, so versions compare with the usual operators.
type Version uint32

// Known file format versions.
const (
	V2_0 Version = 2 << 16   // footer (0,3) or (2,0); minor 0
	V2_1 Version = 2<<16 | 1 // footer (2,1)
	V2_2 Version = 2<<16 | 2 // footer (2,2)
	V2_3 Version = 2<<16 | 3 // footer (2,3), unstable in Lance
)

// Major returns the major version number (2 for every v2 file).
func (v Version) Major() uint16 { return uint16(v >> 16) }

// Minor returns the minor version number.
func (v Version) Minor() uint16 { return uint16(v) }

// String returns "major.minor", e.g. "2.1".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major(), v.Minor()) }

// Structural reports whether the version uses the 2.1+ structural encodings
// (leaf-only columns, 64-byte aligned buffers, PageLayout pages).
func (v Version) Structural() bool { return v >= V2_1 }

// VersionFromFooter maps footer (major, minor) numbers to a Version.
// (0,3) and (2,0) both mean 2.0; (2,1), (2,2) and (2,3) are accepted.
// Legacy v1 files (0,1)/(0,2) and all other numbers give an error wrapping
// ErrUnsupportedVersion.
func VersionFromFooter(major, minor uint16) (Version, error) {
	switch {
	case major == 0 && minor == 3, major == 2 && minor == 0:
		return V2_0, nil
	case major == 2 && minor >= 1 && minor <= 3:
		return Version(uint32(major)<<16 | uint32(minor)), nil
	case major == 0 && minor <= 2:
		return 0, unsupportedVersionf("footer version %d.%d is a legacy v1 file", major, minor)
	default:
		return 0, unsupportedVersionf("footer version %d.%d is not supported (want 0.3, 2.0, 2.1, 2.2 or 2.3)", major, minor)
	}
}

// Footer is the decoded 40-byte footer of a Lance v2 file. All offsets are
// absolute file offsets.
type Footer struct {
	ColumnMetaStart  uint64 // offset of column metadata 0
	CMOTableStart    uint64 // offset of the column metadata offset table
	GBOTableStart    uint64 // offset of the global buffer offset table
	NumGlobalBuffers uint32 // number of global buffers (≥ 1; buffer 0 is the schema)
	NumColumns       uint32 // number of columns
	MajorVersion     uint16 // raw major version number
	MinorVersion     uint16 // raw minor version number
}

// Version returns the normalized format version of the footer.
func (f Footer) Version() (Version, error) {
	return VersionFromFooter(f.MajorVersion, f.MinorVersion)
}

// ParseFooter decodes the footer from the last FooterSize bytes of b.
// It checks the magic number and the version. On a version error the
// decoded footer is still returned together with an error wrapping
// ErrUnsupportedVersion; on any other error the Footer is zero.
// Region bounds are not checked here (see ParseTail).
func ParseFooter(b []byte) (Footer, error) {
	if len(b) < FooterSize {
		return Footer{}, corruptf("footer: need %d bytes, have %d", FooterSize, len(b))
	}
	b = b[len(b)-FooterSize:]
	if string(b[36:40]) != Magic {
		return Footer{}, corruptf("footer: bad magic %q (want %q): not a Lance file", b[36:40], Magic)
	}
	le := binary.LittleEndian
	f := Footer{
		ColumnMetaStart:  le.Uint64(b[0:]),
		CMOTableStart:    le.Uint64(b[8:]),
		GBOTableStart:    le.Uint64(b[16:]),
		NumGlobalBuffers: le.Uint32(b[24:]),
		NumColumns:       le.Uint32(b[28:]),
		MajorVersion:     le.Uint16(b[32:]),
		MinorVersion:     le.Uint16(b[34:]),
	}
	if _, err := f.Version(); err != nil {
		return f, err
	}
	return f, nil
}

// AppendFooter appends the 40-byte encoding of f to dst and returns the
// extended slice. It is the inverse of ParseFooter.
func AppendFooter(dst []byte, f Footer) []byte {
	le := binary.LittleEndian
	dst = le.AppendUint64(dst, f.ColumnMetaStart)
	dst = le.AppendUint64(dst, f.CMOTableStart)
	dst = le.AppendUint64(dst, f.GBOTableStart)
	dst = le.AppendUint32(dst, f.NumGlobalBuffers)
	dst = le.AppendUint32(dst, f.NumColumns)
	dst = le.AppendUint16(dst, f.MajorVersion)
	dst = le.AppendUint16(dst, f.MinorVersion)
	return append(dst, Magic...)
}

// validate checks the footer's regions against the file size:
// ColumnMetaStart ≤ CMOTableStart, CMOTableStart + 16·NumColumns ==
// GBOTableStart, GBOTableStart + 16·NumGlobalBuffers ≤ fileSize-40, and at
// least one global buffer.
func (f Footer) validate(fileSize uint64) error {
	footerStart := fileSize - FooterSize
	if f.NumGlobalBuffers == 0 {
		return corruptf("footer: no global buffers (global buffer 0 holds the schema)")
	}
	if f.ColumnMetaStart > f.CMOTableStart {
		return corruptf("footer: column metadata start %d after CMO table start %d", f.ColumnMetaStart, f.CMOTableStart)
	}
	cmoLen, _ := checkedMul(uint64(f.NumColumns), offsetEntrySize) // < 2^37, cannot overflow
	cmoEnd, ok := checkedAdd(f.CMOTableStart, cmoLen)
	if !ok || cmoEnd != f.GBOTableStart {
		return corruptf("footer: CMO table [offset %d, size %d] for %d columns does not end at GBO table start %d",
			f.CMOTableStart, cmoLen, f.NumColumns, f.GBOTableStart)
	}
	gboLen, _ := checkedMul(uint64(f.NumGlobalBuffers), offsetEntrySize)
	gbo := Range{f.GBOTableStart, gboLen}
	if !gbo.within(0, footerStart) {
		return corruptf("footer: GBO table %v for %d global buffers overlaps the footer at %d (file of %d bytes)",
			gbo, f.NumGlobalBuffers, footerStart, fileSize)
	}
	return nil
}
