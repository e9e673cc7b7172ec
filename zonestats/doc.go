// Package zonestats implements Lance zone write seeds (version 1, and
// reading version 0): per-zone min/max/null/NaN statistics of a column,
// stored as an Arrow IPC file in a data file's global buffer and located by
// the schema metadata entry SeedKey(column) = FormatLocator(...). See
// shared/spec/zone-seeds.md for the format and the validation checklist
// whose rule ids (L1–L5, C1–C4, B1–B5, N1–N4, F1–F3) appear in errors.
//
// # Writing
//
// A Collector per column receives each batch (Append) and returns the
// serialized seed (Finish). Nothing is written unless a caller creates a
// Collector; see FlagZoneWriteSeeds for the table flag rules.
//
// # Reading
//
// ParseSeed parses and validates a seed; only valid seeds are returned, so
// every Seed may prune. Null bounds are unknown unless the zone has no
// ordinary (non-null, non-NaN) values; unknown never excludes a value.
//
// # Filters
//
// Filters live in package expr (the SQL dialect Lance accepts, parsed,
// bound and evaluated over Arrow batches), which asks these statistics
// what to prune: expr's Predicate.MayMatch takes a file's seeds and
// gives a per-zone "may match" mask, Predicate.MayMatchStats takes the
// Stats of one set of rows. The accessors of bounds.go are what a pruner
// reads: Stats.BoundArrays (the bounds as Arrow values), the possible
// NaN signs (Stats.MayHaveNegNaN, MayHavePosNaN) and Seed.ZonesOf (a
// seed's zones regrouped to another zone size). What the statistics
// promise:
//
//   - Bounds cover every non-null, non-NaN value of the zone, in
//     IEEE-754 totalOrder for floats (so -0.0 and +0.0 are distinct
//     bounds: a pruner comparing as Lance does, where -0.0 = 0.0, must
//     widen them).
//   - A zone may hold a NaN of either sign whenever nan_count > 0 in
//     version 0; version 1 counts tell the signs apart. A version 0 NaN
//     max is no bound.
//   - Null bounds are unknown unless the zone has no ordinary values.
//
// # Aggregation
//
// Merge, MergeAll and Seed.Summary combine statistics into file- or
// multi-file summaries that expr's Predicate.MayMatchStats prunes the
// same way; BuildZoneMap builds a zone-map index with global row offsets
// (ZoneMap.Stats gives each entry's statistics).
package zonestats
