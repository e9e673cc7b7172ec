package dataset

import (
	"fmt"
	"math/bits"
	"strings"
)

// Reader feature flags of a manifest (Lance's feature_flags.rs).
const (
	// FlagDeletionFiles: fragments may have deletion files.
	FlagDeletionFiles uint64 = 1
	// FlagStableRowIDs: fragments carry row id sequences.
	FlagStableRowIDs uint64 = 2
	// FlagUseV2Format is a deprecated flag with no effect on reading.
	FlagUseV2Format uint64 = 4
	// FlagTableConfig: the manifest has table config (writers only).
	FlagTableConfig uint64 = 8
	// FlagBasePaths: files may live under other base paths.
	FlagBasePaths uint64 = 16
	// FlagDisableTransactionFile: transactions are inline (writers only).
	FlagDisableTransactionFile uint64 = 32
	// FlagMixedDataFileVersions: v2 data files of different exact versions
	// may appear (each is read by its own version); set in both the reader
	// and writer flags, or in neither (pylance 14.0.2 sets it on commits
	// that mix versions, and keeps it).
	FlagMixedDataFileVersions uint64 = 256
	// FlagZoneWriteSeeds: data files may carry version 1 zone seeds
	// (zonestats.FlagZoneWriteSeeds); set in both flags, only on explicit
	// request (WithZoneSeedsFlag), kept by later commits.
	FlagZoneWriteSeeds uint64 = 1 << 16
)

// knownReaderFlags are the reader flags this package implements.
const knownReaderFlags = FlagDeletionFiles | FlagStableRowIDs | FlagUseV2Format |
	FlagTableConfig | FlagBasePaths | FlagDisableTransactionFile | FlagMixedDataFileVersions | FlagZoneWriteSeeds

// CheckReaderFlags returns an error wrapping ErrUnsupportedFeature that
// names every flag in flags this reader does not implement.
func CheckReaderFlags(flags uint64) error {
	unknown := flags &^ knownReaderFlags
	if unknown == 0 {
		return nil
	}
	var names []string
	for unknown != 0 {
		b := bits.TrailingZeros64(unknown)
		names = append(names, fmt.Sprintf("bit %d (0x%x)", b, uint64(1)<<b))
		unknown &^= 1 << b
	}
	return fmt.Errorf("%w: reader_feature_flags %s", ErrUnsupportedFeature, strings.Join(names, ", "))
}

// CheckPairedFlags reports a manifest whose mixed-version capability is
// set in only one of its reader and writer flags, which Lance's format
// declares invalid.
func CheckPairedFlags(reader, writer uint64) error {
	if reader&FlagMixedDataFileVersions != writer&FlagMixedDataFileVersions {
		return corruptf("the mixed data-file-version capability is set in only one of the reader (%v) and writer (%v) feature flags",
			reader&FlagMixedDataFileVersions != 0, writer&FlagMixedDataFileVersions != 0)
	}
	return nil
}
