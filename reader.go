// Package lance reads and writes Lance columnar files and datasets in pure
// Go.
//
// Open a file with Open, then read it with Scan (batches of rows for a
// projection and row range) or Take (rows by index, in the order asked).
// Results are Apache Arrow record batches. Create writes a file;
// OpenDataset and CreateDataset read and write versioned datasets.
//
// This package is the public facade. The engines behind it are internal:
// internal/fileread reads files (File's methods are documented there),
// internal/filewriter writes them (Writer) and internal/dataset reads and
// commits datasets (Dataset). The types here are aliases of theirs, so a
// *File is a *fileread.File; see docs/ARCHITECTURE.md for the map.
package lance

import (
	"context"

	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/fileread"
)

// Default values of reader options.
const (
	// DefaultTailSize is the size of the speculative read at the end of the
	// file that fetches the footer and metadata in one request (64 KiB).
	DefaultTailSize = fileread.DefaultTailSize
	// DefaultBatchSize is the number of rows per scan batch (8,192).
	DefaultBatchSize = fileread.DefaultBatchSize
)

// File is an open Lance file. It is safe for concurrent use. Its methods
// are Scan and Batches (rows of a projection and row range, optionally
// filtered with zone-seed pruning), PlanFilter (which conjuncts of a
// filter a scan applies), Take (rows by index), Schema, NumRows,
// Metadata, Stats, ZoneSeeds, ZoneSummary, Legacy, URL and Close; they
// are documented on fileread.File.
type File = fileread.File

// ScanOptions selects the columns, rows, batch size and filter of a scan
// (File.Scan, File.Batches); its fields are documented on
// fileread.ScanOptions. Filters are those of package expr: Filter takes
// an expr.Expr (expr.Parse, or built with expr.Col, expr.Lit, ...),
// FilterSQL the text of one.
type ScanOptions = fileread.ScanOptions

// Conjunct is one top-level AND term of a scan's filter and whether the
// scan applies it (File.PlanFilter, Dataset.PlanFilter; see
// ScanOptions.PartialFilter).
type Conjunct = fileread.Conjunct

// Stats reports what a file's or a dataset's reads cost: requests, bytes,
// retries, round trips, cache hits and zone pruning (fields documented on
// fileread.Stats).
type Stats = fileread.Stats

// LegacyLayout is the physical layout of a legacy (v1) file, from
// File.Legacy: batches and the page table by field id.
type LegacyLayout = fileread.LegacyLayout

// LegacyColumn is one field id's pages in a legacy file's page table.
type LegacyColumn = fileread.LegacyColumn

// Open opens the Lance file at url: a local path or file:// URL, or an
// object-store URL (s3://, gs://, azblob://, mem://; see package io).
// Versions 2.0 to 2.3 are read, and legacy v1 data files with the schema
// their writer embedded (see OpenLegacy to use the dataset's instead). It
// reads the footer and metadata with one speculative tail read, and one more
// only when the metadata is larger than the tail.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	return fileread.Open(ctx, url, opts...)
}

// OpenLegacy opens a legacy Lance data file (the v1 format, footer 0.1 or
// 0.2, e.g. written by pylance with data_storage_version="legacy"). The
// dataset's manifest holds the schema of such a file: fields are the
// dataset's schema fields this file stores (lance.file.Field, in the
// manifest's pre-order, with their ids). With nil fields the schema the
// writer embedded in the file is used (what Open does for legacy files):
// right for a file read on its own, but it predates any later schema
// evolution of the dataset. Scan and Take then read it like any
// other File, with Lance's legacy semantics: fixed-width values, lists and
// structs have no nulls (null values were stored as zeros, empty lists or
// zero-filled structs) and an empty string or binary of a nullable field
// reads as null.
func OpenLegacy(ctx context.Context, url string, fields []*filepb.Field, opts ...Option) (*File, error) {
	return fileread.OpenLegacy(ctx, url, fields, opts...)
}
