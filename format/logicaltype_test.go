package format

import (
	"errors"
	"strings"
	"testing"
)

// TestParseLogicalType checks every documented logical type string.
func TestParseLogicalType(t *testing.T) {
	tests := map[string]string{
		"null": "null", "bool": "bool", "int8": "int8", "uint8": "uint8", "int16": "int16",
		"uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
		"halffloat": "float16", "float": "float32", "double": "float64",
		"decimal:128:18:2": "decimal(18, 2)", "decimal:256:50:5": "decimal256(50, 5)",
		"decimal:128:10:-2": "decimal(10, -2)",
		"string":            "utf8", "large_string": "large_utf8", "binary": "binary", "large_binary": "large_binary",
		"json": "large_binary", "date32:day": "date32", "date64:ms": "date64",
		"time32:s": "time32[s]", "time32:ms": "time32[ms]", "time64:us": "time64[us]", "time64:ns": "time64[ns]",
		"timestamp:us:UTC": "timestamp[us, tz=UTC]", "timestamp:ns:-": "timestamp[ns]",
		"timestamp:s:+05:30": "timestamp[s, tz=+05:30]",
		"duration:s":         "duration[s]", "duration:ms": "duration[ms]", "duration:us": "duration[us]", "duration:ns": "duration[ns]",
		"fixed_size_binary:16":                     "fixed_size_binary[16]",
		"fixed_size_list:float:128":                "fixed_size_list<item: float32, nullable>[128]",
		"fixed_size_list:timestamp:ms:-:2":         "fixed_size_list<item: timestamp[ms], nullable>[2]",
		"fixed_size_list:fixed_size_list:int8:2:3": "fixed_size_list<item: fixed_size_list<item: int8, nullable>[2], nullable>[3]",
		"fixed_size_list:decimal:128:9:1:4":        "fixed_size_list<item: decimal(9, 1), nullable>[4]",
		"fixed_size_list:lance.bfloat16:8":         "fixed_size_list<item: fixed_size_binary[2], nullable>[8]",
		"dict:string:int32:false":                  "dictionary<values=utf8, indices=int32, ordered=false>",
		"dict:timestamp:us:UTC:uint8:false":        "dictionary<values=timestamp[us, tz=UTC], indices=uint8, ordered=false>",
		"dict:fixed_size_list:float:2:int16:true":  "dictionary<values=fixed_size_list<item: float32, nullable>[2], indices=int16, ordered=true>",
	}
	for lt, want := range tests {
		got, err := ParseLogicalType(lt)
		if err != nil {
			t.Errorf("%s: %v", lt, err)
			continue
		}
		if got.String() != want {
			t.Errorf("%s: got %s, want %s", lt, got, want)
		}
	}
}

// TestParseLogicalTypeErrors checks malformed strings.
func TestParseLogicalTypeErrors(t *testing.T) {
	bad := []string{
		"", "int33", "struct", "list", "map", "list.struct", "decimal:128:0:0", "decimal:128:39:0",
		"decimal:64:10:2", "decimal:128:x:2", "decimal:128:10", "time32:us", "time64:s", "time32",
		"duration:m", "timestamp:us", "timestamp:h:-", "fixed_size_binary:0", "fixed_size_binary:-1",
		"fixed_size_binary:4294967296", "fixed_size_binary", "fixed_size_list:float", "fixed_size_list:float:0",
		"fixed_size_list::4", "fixed_size_list:struct:2", "dict:string:float:false", "dict:string:int32:maybe",
		"dict:string:int32", "dict::int32:false", "date32:ms",
		strings.Repeat("fixed_size_list:", 40) + "int8" + strings.Repeat(":1", 40),
	}
	for _, lt := range bad {
		if typ, err := ParseLogicalType(lt); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%q: got %v, %v; want ErrCorrupt", lt, typ, err)
		}
	}
}
