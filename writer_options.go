package lance

import "github.com/lancego/lancego/internal/filewriter"

// DefaultWriteVersion is the file version written when WithFileVersion is
// not given. It matches pylance 14.0.2's LanceFileWriter default (2.2).
const DefaultWriteVersion = filewriter.DefaultWriteVersion

// DefaultPageBudget is the number of bytes of Arrow input buffered per
// top-level column before a page is written (Lance: 8 MiB per column).
const DefaultPageBudget = filewriter.DefaultPageBudget

// WriterOption configures Create (and, through WithFileOptions, the data
// files of a dataset write): the file version, page budget, zone seeds,
// durability and destination. Build options with the With* functions; the
// nil WriterOption does nothing.
type WriterOption func(*writeConfig)

// writeConfig collects the writer options of a Create.
type writeConfig struct{ opts []filewriter.Option }

// writeOpt makes a WriterOption of a writer option.
func writeOpt(o filewriter.Option) WriterOption {
	return func(c *writeConfig) { c.opts = append(c.opts, o) }
}

// writeOpts converts root writer options to the writer's, skipping nil
// ones.
func writeOpts(opts []WriterOption) []filewriter.Option {
	var c writeConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c.opts
}

// WithFileVersion selects the Lance file version to write: "2.1", "2.2" or
// "2.3". 2.3 is unstable in Lance (planar pages as pylance 14.0.2 writes
// and reads them; no compatibility promise until Lance stabilizes it).
// ("stable", which means 2.1 in LanceDB, is not accepted here to avoid
// ambiguity.) 2.0 ("0.3") and legacy ("0.1", "0.2", "legacy") files are
// read but not written: asking for them is an error wrapping both
// ErrInvalidArgument and ErrUnsupported.
func WithFileVersion(v string) WriterOption { return writeOpt(filewriter.WithFileVersion(v)) }

// WithPageBudget sets how many bytes of Arrow input are buffered per
// top-level column before its pages are encoded and written (default 8 MiB).
func WithPageBudget(n int64) WriterOption { return writeOpt(filewriter.WithPageBudget(n)) }

// WithEnv replaces the environment lookup used for LANCE_ENCODING_DICT_* and
// LANCE_MINIBLOCK_MAX_VALUES (default os.Getenv); useful in tests.
func WithEnv(lookup func(string) string) WriterOption { return writeOpt(filewriter.WithEnv(lookup)) }

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
func WithZoneSeeds(rowsPerZone uint64, columns ...string) WriterOption {
	return writeOpt(filewriter.WithZoneSeeds(rowsPerZone, columns...))
}

// WithSync chooses what Close of a local file makes durable: true (the
// default) fsyncs the file before renaming it into place and its folder
// after, so the file survives a crash once Close returns; false renames it
// into place without fsync, as pylance's LanceFileWriter does (complete and
// visible at once, durable when the OS writes it back). Syncing costs a
// fixed amount per file in Close (docs/benchmarks.md), never per batch.
// Object-store uploads are unaffected, and a dataset commit always makes
// its data files durable before the manifest that names them.
func WithSync(sync bool) WriterOption { return writeOpt(filewriter.WithSync(sync)) }
