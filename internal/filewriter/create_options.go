package filewriter

import (
	"fmt"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/zonestats"
)

// DefaultWriteVersion is the file version written when WithFileVersion is
// not given. It matches pylance 14.0.2's LanceFileWriter default (2.2).
const DefaultWriteVersion = "2.2"

// DefaultPageBudget is the number of bytes of Arrow input buffered per
// top-level column before a page is written (Lance: 8 MiB per column).
const DefaultPageBudget = 8 << 20

// Option configures Create.
type Option func(*createConfig) error

// createConfig holds the options of a Writer.
type createConfig struct {
	version    format.Version
	pageBudget int64
	env        func(string) string // environment lookup (os.Getenv by default)
	create     ObjectCreator       // destination for non-local URLs
	createAll  bool                // create also takes local paths (dataset data files)
	zoneSeeds  *ZoneSeedConfig     // WithZoneSeeds, or nil
	noSync     bool                // WithSync(false): a local Close does not fsync
}

// WithFileVersion selects the Lance file version to write: "2.1", "2.2" or
// "2.3". 2.3 is unstable in Lance (planar pages as pylance 14.0.2 writes
// and reads them; no compatibility promise until Lance stabilizes it).
// ("stable", which means 2.1 in LanceDB, is not accepted here to avoid
// ambiguity.) 2.0 ("0.3") and legacy ("0.1", "0.2", "legacy") files are
// read but not written: asking for them is an error wrapping both
// lerr.ErrInvalidArgument and lerr.ErrUnsupported.
func WithFileVersion(v string) Option {
	return func(c *createConfig) error {
		switch v {
		case "2.1":
			c.version = format.V2_1
		case "2.2":
			c.version = format.V2_2
		case "2.3":
			c.version = format.V2_3
		case "2.0", "0.3", "0.1", "0.2", "legacy":
			return fmt.Errorf("%w: %w: Lance %s files are read, not written (want 2.1, 2.2 or 2.3)", lerr.ErrInvalidArgument, lerr.ErrUnsupported, v)
		default:
			return fmt.Errorf("%w: file version %q (want 2.1, 2.2 or 2.3)", lerr.ErrInvalidArgument, v)
		}
		return nil
	}
}

// WithPageBudget sets how many bytes of Arrow input are buffered per
// top-level column before its pages are encoded and written (default 8 MiB).
func WithPageBudget(n int64) Option {
	return func(c *createConfig) error {
		if n <= 0 {
			return fmt.Errorf("%w: page budget %d", lerr.ErrInvalidArgument, n)
		}
		c.pageBudget = n
		return nil
	}
}

// WithEnv replaces the environment lookup used for LANCE_ENCODING_DICT_* and
// LANCE_MINIBLOCK_MAX_VALUES (default os.Getenv); useful in tests.
func WithEnv(lookup func(string) string) Option {
	return func(c *createConfig) error {
		c.env = lookup
		return nil
	}
}

// WithZoneSeeds makes the writer store a zone seed (version 1 per-zone
// min/max/null/NaN statistics, see package zonestats and
// docs/zone-seeds.md) for each named top-level column, or for every
// top-level column when none is named. rowsPerZone is the zone size; 0
// means zonestats.DefaultRowsPerZone (8,192). Each seed is an Arrow IPC
// file in a global buffer, located by the schema metadata entry
// "lance.seed.<column>" = "<buffer_index>:<rows_per_zone>". Nested columns
// get null bounds with counts of the outer column. Seeds are opt-in: no
// seed is written without this option, and no table feature flag is set
// (a data file has none; see zonestats.FlagZoneWriteSeeds).
func WithZoneSeeds(rowsPerZone uint64, columns ...string) Option {
	return func(c *createConfig) error {
		if rowsPerZone > zonestats.MaxRowsPerZone {
			return fmt.Errorf("%w: rows per zone %d exceeds %d", lerr.ErrInvalidArgument, rowsPerZone, uint64(zonestats.MaxRowsPerZone))
		}
		if rowsPerZone == 0 {
			rowsPerZone = zonestats.DefaultRowsPerZone
		}
		c.zoneSeeds = &ZoneSeedConfig{RowsPerZone: rowsPerZone, Columns: append([]string(nil), columns...)}
		return nil
	}
}

// WithLocalCreate makes the ObjectCreator (WithObjectCreator) take local
// paths too: a dataset's data files go through its store.
func WithLocalCreate() Option {
	return func(c *createConfig) error {
		c.createAll = true
		return nil
	}
}

// WithSync chooses what Close of a local file makes durable. With true (the
// default) Close fsyncs the file before renaming it into place and fsyncs
// its folder after: once Close returns the file survives a crash. With
// false Close renames the file into place without any fsync (what pylance's
// LanceFileWriter does): the file is complete and visible to every reader
// at once, and durable only when the operating system writes it back. The
// fsyncs cost a fixed ~10-20 ms a file on this project's test machine (see
// docs/benchmarks.md), paid once in Close and never per batch. Object-store
// destinations are unaffected (an upload is durable when it completes), and
// dataset commits always make their data files durable before the manifest.
func WithSync(sync bool) Option {
	return func(c *createConfig) error {
		c.noSync = !sync
		return nil
	}
}

// VersionOf returns the file version Create writes with opts.
func VersionOf(opts ...Option) (format.Version, error) {
	c := createConfig{}
	if err := WithFileVersion(DefaultWriteVersion)(&c); err != nil {
		return 0, err
	}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return 0, err
		}
	}
	return c.version, nil
}

// ExplicitVersion returns the file version opts ask for, or 0 when none
// does (a dataset write then follows the dataset's storage version).
func ExplicitVersion(opts ...Option) (format.Version, error) {
	var c createConfig
	for _, o := range opts {
		if err := o(&c); err != nil {
			return 0, err
		}
	}
	return c.version, nil
}

// WithFormatVersion is WithFileVersion for a version already known to be
// written (2.1 or later): a dataset's own data storage version.
func WithFormatVersion(v format.Version) Option {
	return func(c *createConfig) error {
		c.version = v
		return nil
	}
}
