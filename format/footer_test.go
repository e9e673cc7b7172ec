package format

import (
	"errors"
	"strings"
	"testing"
)

// TestParseFooterVersions checks the accepted and rejected versions.
func TestParseFooterVersions(t *testing.T) {
	tests := []struct {
		major, minor uint16
		want         Version
		err          error
		msg          string
	}{
		{0, 3, V2_0, nil, ""},
		{2, 0, V2_0, nil, ""},
		{2, 1, V2_1, nil, ""},
		{2, 2, V2_2, nil, ""},
		{2, 3, V2_3, nil, ""},
		{0, 2, 0, ErrUnsupportedVersion, "legacy v1 file"},
		{0, 1, 0, ErrUnsupportedVersion, "legacy v1 file"},
		{0, 0, 0, ErrUnsupportedVersion, "legacy v1 file"},
		{2, 4, 0, ErrUnsupportedVersion, "2.4"},
		{1, 0, 0, ErrUnsupportedVersion, "1.0"},
		{3, 0, 0, ErrUnsupportedVersion, "3.0"},
		{0, 4, 0, ErrUnsupportedVersion, "0.4"},
	}
	for _, tt := range tests {
		in := Footer{ColumnMetaStart: 1, CMOTableStart: 2, GBOTableStart: 3, NumGlobalBuffers: 4,
			NumColumns: 5, MajorVersion: tt.major, MinorVersion: tt.minor}
		b := AppendFooter([]byte("prefix"), in)
		got, err := ParseFooter(b)
		if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("%d.%d: err %v, want %v", tt.major, tt.minor, err, tt.err)
			continue
		}
		if got != in {
			t.Errorf("%d.%d: footer %+v, want %+v", tt.major, tt.minor, got, in)
		}
		if err != nil {
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%d.%d: %q lacks %q", tt.major, tt.minor, err, tt.msg)
			}
			continue
		}
		if v, _ := got.Version(); v != tt.want {
			t.Errorf("%d.%d: version %v, want %v", tt.major, tt.minor, v, tt.want)
		}
	}
}

// TestParseFooterErrors checks short input and bad magic.
func TestParseFooterErrors(t *testing.T) {
	good := AppendFooter(nil, Footer{MajorVersion: 2, MinorVersion: 1})
	if _, err := ParseFooter(good[1:]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short footer: %v", err)
	}
	bad := append([]byte(nil), good...)
	bad[39] = 'D'
	if _, err := ParseFooter(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "magic") {
		t.Errorf("bad magic: %v", err)
	}
}

// TestVersionMethods checks Version accessors and ordering.
func TestVersionMethods(t *testing.T) {
	if V2_0.String() != "2.0" || V2_3.String() != "2.3" || V2_2.Minor() != 2 || V2_1.Major() != 2 {
		t.Fatal("Version accessors")
	}
	if !(V2_0 < V2_1 && V2_1 < V2_2 && V2_2 < V2_3) || V2_0.Structural() || !V2_1.Structural() {
		t.Fatal("Version ordering")
	}
}

// TestParseTailArguments checks caller errors and tiny files.
func TestParseTailArguments(t *testing.T) {
	if _, _, err := ParseTail(3, make([]byte, 4)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("long tail: %v", err)
	}
	if _, _, err := ParseTail(39, make([]byte, 39)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("tiny file: %v", err)
	}
	_, need, err := ParseTail(1000, make([]byte, 10))
	if err != nil || need == nil || *need != (Range{960, 30}) {
		t.Errorf("short tail: need %v, err %v", need, err)
	}
	if _, err := ReadMetadata(1000, 0, func(Range) ([]byte, error) { return nil, nil }); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("short read: %v", err)
	}
}
