package dataset

import (
	"crypto/rand"
	"fmt"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/format/pb/tablepb"
)

// TransactionsDir holds the transaction files that let concurrent writers
// (Lance's conflict resolution) see what each version did.
const TransactionsDir = "_transactions"

// Operation numbers of lance.table.Transaction's oneof (transaction.proto).
const (
	TxnAppend           = 100
	TxnDelete           = 101
	TxnOverwrite        = 102
	TxnCreateIndex      = 103
	TxnRewrite          = 104
	TxnMerge            = 105
	TxnRestore          = 106
	TxnReserveFragments = 107
	TxnUpdate           = 108
	TxnProject          = 109
)

// Transaction is what a commit did, in the terms of Lance's
// lance.table.Transaction.
type Transaction struct {
	ReadVersion uint64
	UUID        string
	Op          protowire.Number // TxnAppend, TxnDelete or TxnOverwrite
	// Fragments: Append/Overwrite new fragments; Delete updated ones.
	Fragments      []*tablepb.DataFragment
	DeletedIDs     []uint64 // Delete: fragments removed
	Predicate      string   // Delete
	Schema         []*filepb.Field
	SchemaMetadata map[string][]byte
	// Update: Fragments are the updated ones, DeletedIDs the removed,
	// NewFragments the rewritten rows; Modified the SET columns' field ids.
	NewFragments []*tablepb.DataFragment
	Modified     []uint32
	// ReserveFragments: how many ids; Rewrite: the groups replaced.
	Reserve uint32
	Groups  []rewriteGroup
	// Restore: the version restored.
	RestoreVersion uint64
	// CreateIndex: the IndexMetadata messages added and removed.
	NewIndices, RemovedIndices [][]byte
}

// NewUUID returns a random (version 4) UUID in its canonical text form.
func NewUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
}

// TransactionName is the file name of t under _transactions/.
func (t *Transaction) TransactionName() string {
	return fmt.Sprintf("%d-%s.txn", t.ReadVersion, t.UUID)
}

// Encode serializes t as a lance.table.Transaction (the whole file).
func (t *Transaction) Encode() ([]byte, error) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, t.ReadVersion)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, t.UUID)
	op, err := t.encodeOp()
	if err != nil {
		return nil, err
	}
	b = protowire.AppendTag(b, t.Op, protowire.BytesType)
	return protowire.AppendBytes(b, op), nil
}

func (t *Transaction) encodeOp() ([]byte, error) {
	var b []byte
	mo := proto.MarshalOptions{Deterministic: true}
	switch t.Op {
	case TxnUpdate:
		return t.encodeUpdate(mo)
	case TxnReserveFragments: // num_fragments = 1
		return protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(t.Reserve)), nil
	case TxnRewrite:
		return t.encodeRewrite(mo)
	case TxnCreateIndex: // new_indices = 1, removed_indices = 2
		for _, x := range t.NewIndices {
			b = protowire.AppendBytes(protowire.AppendTag(b, 1, protowire.BytesType), x)
		}
		for _, x := range t.RemovedIndices {
			b = protowire.AppendBytes(protowire.AppendTag(b, 2, protowire.BytesType), x)
		}
		return b, nil
	case TxnRestore: // version = 1
		return protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), t.RestoreVersion), nil
	case TxnProject: // schema = 1
		for _, f := range t.Schema {
			fb, err := mo.Marshal(f)
			if err != nil {
				return nil, err
			}
			b = protowire.AppendBytes(protowire.AppendTag(b, 1, protowire.BytesType), fb)
		}
		return b, nil
	}
	for _, f := range t.Fragments {
		fb, err := mo.Marshal(f)
		if err != nil {
			return nil, err
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, fb)
	}
	switch t.Op {
	case TxnDelete:
		if len(t.DeletedIDs) > 0 {
			var packed []byte
			for _, id := range t.DeletedIDs {
				packed = protowire.AppendVarint(packed, id)
			}
			b = protowire.AppendTag(b, 2, protowire.BytesType)
			b = protowire.AppendBytes(b, packed)
		}
		if t.Predicate != "" {
			b = protowire.AppendTag(b, 3, protowire.BytesType)
			b = protowire.AppendString(b, t.Predicate)
		}
	case TxnOverwrite, TxnMerge: // fragments = 1, schema = 2, schema_metadata = 3 in both
		for _, f := range t.Schema {
			fb, err := mo.Marshal(f)
			if err != nil {
				return nil, err
			}
			b = protowire.AppendTag(b, 2, protowire.BytesType)
			b = protowire.AppendBytes(b, fb)
		}
		keys := make([]string, 0, len(t.SchemaMetadata))
		for k := range t.SchemaMetadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var e []byte
			e = protowire.AppendTag(e, 1, protowire.BytesType)
			e = protowire.AppendString(e, k)
			e = protowire.AppendTag(e, 2, protowire.BytesType)
			e = protowire.AppendBytes(e, t.SchemaMetadata[k])
			b = protowire.AppendTag(b, 3, protowire.BytesType)
			b = protowire.AppendBytes(b, e)
		}
		if t.Op == TxnMerge { // preserves_nullability = 4: only nullable fields are added
			b = protowire.AppendVarint(protowire.AppendTag(b, 4, protowire.VarintType), 1)
		}
	}
	return b, nil
}

// encodeUpdate serializes Transaction.Update: removed_fragment_ids = 1,
// updated_fragments = 2, new_fragments = 3,
// fields_for_preserving_frag_bitmap = 6 (update_mode 7 stays
// REWRITE_ROWS, the default, as Lance's update writes it).
func (t *Transaction) encodeUpdate(mo proto.MarshalOptions) ([]byte, error) {
	var b []byte
	if len(t.DeletedIDs) > 0 {
		var packed []byte
		for _, id := range t.DeletedIDs {
			packed = protowire.AppendVarint(packed, id)
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, packed)
	}
	for _, set := range []struct {
		num   protowire.Number
		frags []*tablepb.DataFragment
	}{{2, t.Fragments}, {3, t.NewFragments}} {
		for _, f := range set.frags {
			fb, err := mo.Marshal(f)
			if err != nil {
				return nil, err
			}
			b = protowire.AppendTag(b, set.num, protowire.BytesType)
			b = protowire.AppendBytes(b, fb)
		}
	}
	if len(t.Modified) > 0 {
		var packed []byte
		for _, id := range t.Modified {
			packed = protowire.AppendVarint(packed, uint64(id))
		}
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendBytes(b, packed)
	}
	return b, nil
}

// encodeRewrite serializes Transaction.Rewrite as Lance's compaction
// writes it: only groups = 3, each RewriteGroup {old_fragments = 1,
// new_fragments = 2}.
func (t *Transaction) encodeRewrite(mo proto.MarshalOptions) ([]byte, error) {
	var b []byte
	for _, g := range t.Groups {
		var gb []byte
		for _, set := range []struct {
			num   protowire.Number
			frags []*tablepb.DataFragment
		}{{1, g.old}, {2, g.new}} {
			for _, f := range set.frags {
				fb, err := mo.Marshal(f)
				if err != nil {
					return nil, err
				}
				gb = protowire.AppendTag(gb, set.num, protowire.BytesType)
				gb = protowire.AppendBytes(gb, fb)
			}
		}
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, gb)
	}
	return b, nil
}
