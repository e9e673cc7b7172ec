// Package indices reads the indices real Lance (pylance 14.0.2) stores with
// a dataset: one package of index formats, one file per index type reading
// (and later writing) its files.
//
// Index discovery (meta.go) decodes the manifest's IndexSection into
// IndexMetadata values (uuid, name, fields, fragment bitmap, details, version,
// files) and groups segments sharing a name into an Index. The three row-set
// serializations Lance uses (portable 32-bit roaring, RowAddrTreeMap and
// roaring-rs RoaringTreemap) are decoded by rowset.go. Index files are Lance
// files under <dataset>/_indices/<uuid>/; the readers of each index type open
// them through the project's file reader.
//
// Every decoder checks lengths, counts and offsets against the bytes it was
// given and reports ErrCorrupt instead of panicking; allocations are bounded
// by the input's size.
package indices
