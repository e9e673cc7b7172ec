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
// Build an Expr with Col(...).Gt(Int64(5)), And, Or, Not, In, IsNull,
// IsNotNull, IsNaN, or parse one with ParseFilter, then Bind it to a
// schema. Predicate.MayMatch gives a per-zone "may match" mask from seeds;
// Predicate.Evaluate filters rows exactly. Semantics:
//
//   - NULL: SQL three-valued logic. A comparison or IN with a null value or
//     a NULL literal is NULL, and NULL rows are not selected. NOT (NULL) is
//     NULL, so null rows satisfy neither x > 5 nor NOT (x > 5); x != 5
//     excludes nulls. x IN (1, NULL) is TRUE for 1 and NULL otherwise (never
//     FALSE), so NOT (x IN (1, NULL)) selects nothing.
//   - Floats: comparisons use IEEE-754 totalOrder, exactly like the arrow-rs
//     comparison kernels DataFusion uses: -NaN < -Inf < ... < -0.0 < +0.0 <
//     ... < +Inf < +NaN, and = is bit equality. So +NaN satisfies x > 5,
//     -NaN satisfies x < 5, -0.0 = 0.0 is false, and NaN = NaN is true only
//     for identical bit patterns. IS NAN matches NaNs of either sign.
//   - Pruning never drops a zone where a qualifying NaN may exist: version 1
//     counts tell the NaN signs apart; version 0 (and unknown signs) assume
//     both signs whenever nan_count > 0. A version 0 NaN max is no bound.
//   - Literals are coerced to the column type at Bind: integers, decimals
//     and temporal values (raw stored integers) must be exact; float
//     columns round to the nearest value of their width.
//
// # Aggregation
//
// Merge, MergeAll and Seed.Summary combine statistics into file- or
// multi-file summaries that Predicate.MayMatchStats prunes the same way;
// BuildZoneMap builds a zone-map index with global row offsets.
package zonestats
