package lance

import "github.com/lancego/lancego/indices"

// Index is one logical index of a dataset (the segments sharing a name),
// as Dataset.Indices lists it: name, type, columns, segments with their
// covered fragments, rows indexed and versions. It is package indices'
// type (public; see go doc github.com/lancego/lancego/indices Index).
type Index = indices.Index

// IndexSegment is one segment of an Index (indices.Segment).
type IndexSegment = indices.Segment

// IndexMetadata is one IndexMetadata entry of a manifest, as
// Dataset.IndexMetadata decodes it (indices.IndexMetadata).
type IndexMetadata = indices.IndexMetadata
