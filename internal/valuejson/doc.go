// Package valuejson converts Arrow arrays to the JSON value conventions of
// the Lance interoperability corpus (see shared/corpus/README.md, sections
// "expected.json" and "Value conventions").
//
// The conventions, per Arrow type:
//
//	null                                   nil
//	bool                                   true / false
//	int8/16/32, uint8/16/32, date32, time32 JSON number (int64 in Go)
//	int64, uint64                          decimal string
//	date64, time64, timestamp, duration    decimal string of the raw int64
//	decimal32/64/128/256                   decimal string of the unscaled integer
//	float16/32/64                          "0x" + lowercase hex of the bit pattern
//	utf8, large_utf8, utf8_view            string
//	binary, large_binary, fixed_size_binary,
//	binary_view                            standard base64 with padding
//	list, large_list, fixed_size_list,
//	list_view, large_list_view             []any
//	struct                                 OrderedObject in child order
//	map                                    []any of OrderedObject{"key", "value"}
//	dictionary, run_end_encoded            the decoded value
//	extension                              the value of the storage array
//
// Value trees produced by this package contain only nil, bool, int64,
// string, []any and OrderedObject, so they can be encoded without
// reflection (see Encode) and compared with decoded expected.json files
// (see EqualJSON).
//
// Strings that are not valid UTF-8 cannot be represented in JSON; they are
// written with U+FFFD replacing each invalid byte, as encoding/json does.
package valuejson
