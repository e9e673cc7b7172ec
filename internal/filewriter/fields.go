package filewriter

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
)

// SchemaFields returns the field protobufs a file of version v written
// with schema stores (ids assigned in pre-order from 0), and the ids of
// the fields that own a column, in column order: what a dataset
// manifest lists as a data file's fields (column i holds field leaves[i]).
func SchemaFields(schema *arrow.Schema, v format.Version, env func(string) string) (fields []*filepb.Field, leaves []int32, err error) {
	fields, _, err = buildSchemaProto(schema, v, env)
	if err != nil {
		return nil, nil, err
	}
	parents := make(map[int32]bool, len(fields))
	for _, f := range fields {
		parents[f.GetParentId()] = true
	}
	for _, f := range fields {
		if f.GetId() >= 0 && !parents[f.GetId()] {
			leaves = append(leaves, f.GetId())
		}
	}
	return fields, leaves, nil
}
