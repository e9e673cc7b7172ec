"""Arrow <-> expected.json conventions shared by gen.py and verify.py.

The conventions are those of the shared interoperability corpus
(see testdata/corpus/README.md): 64-bit integers and 64-bit temporal values as
decimal strings, floats as "0x" + hex of the IEEE-754 bit pattern, binary as
base64, decimals as the unscaled integer in a decimal string, structs as
objects, maps as lists of {"key","value"}.

Values are taken from the Arrow buffers directly (not through Python floats),
so NaN payloads and -0.0 survive exactly.
"""
import base64

import pyarrow as pa
import pyarrow.types as pt

TIME_UNITS = {"s": "s", "ms": "ms", "us": "us", "ns": "ns"}


# ---------------------------------------------------------------------------
# schema
# ---------------------------------------------------------------------------

def type_json(t):
    if pt.is_null(t):
        return {"type": "null"}
    if pt.is_boolean(t):
        return {"type": "bool"}
    if pt.is_integer(t):
        return {"type": ("int" if pt.is_signed_integer(t) else "uint") + str(t.bit_width)}
    if pt.is_float16(t):
        return {"type": "float16"}
    if pt.is_float32(t):
        return {"type": "float32"}
    if pt.is_float64(t):
        return {"type": "float64"}
    if pt.is_string(t):
        return {"type": "utf8"}
    if pt.is_large_string(t):
        return {"type": "large_utf8"}
    if pt.is_binary(t):
        return {"type": "binary"}
    if pt.is_large_binary(t):
        return {"type": "large_binary"}
    if pt.is_fixed_size_binary(t) and not pt.is_decimal(t):
        return {"type": "fixed_size_binary", "byte_width": t.byte_width}
    if pt.is_decimal(t):
        return {"type": f"decimal{t.bit_width}", "precision": t.precision, "scale": t.scale}
    if pt.is_date32(t):
        return {"type": "date32"}
    if pt.is_date64(t):
        return {"type": "date64"}
    if pt.is_time32(t):
        return {"type": "time32", "unit": t.unit}
    if pt.is_time64(t):
        return {"type": "time64", "unit": t.unit}
    if pt.is_timestamp(t):
        return {"type": "timestamp", "unit": t.unit, "timezone": t.tz}
    if pt.is_duration(t):
        return {"type": "duration", "unit": t.unit}
    if pt.is_map(t):
        return {"type": "map", "keys_sorted": bool(t.keys_sorted)}
    if pt.is_large_list(t):
        # not used by the shared corpus; same shape as "list"
        return {"type": "large_list"}
    if pt.is_list(t):
        return {"type": "list"}
    if pt.is_fixed_size_list(t):
        return {"type": "fixed_size_list", "list_size": t.list_size}
    if pt.is_struct(t):
        return {"type": "struct"}
    if pt.is_dictionary(t):
        return {"type": "dictionary", "index_type": type_json(t.index_type)["type"],
                "value_type": type_json(t.value_type)["type"]}
    raise TypeError(f"type_json: unsupported Arrow type {t}")


def _children(t):
    if pt.is_dictionary(t):
        return []
    if pt.is_map(t):
        # MapType's single child is the entries struct<key, value>
        return [t.field(0)]  # the entries struct<key, value>
    if pt.is_struct(t):
        return [t.field(i) for i in range(t.num_fields)]
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t):
        return [t.value_field]
    return []


def field_json(f):
    o = {"name": f.name}
    o.update(type_json(f.type))
    o["nullable"] = bool(f.nullable)
    md = f.metadata or {}
    o["metadata"] = {k.decode() if isinstance(k, bytes) else k: v.decode() if isinstance(v, bytes) else v
                     for k, v in sorted(md.items())}
    kids = _children(f.type)
    if kids:
        o["children"] = [field_json(c) for c in kids]
    return o


def schema_json(schema):
    return [field_json(f) for f in schema]


# ---------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------

def _valid(arr):
    """Python list of validity booleans for arr (respecting its offset)."""
    if arr.null_count == 0:
        return [True] * len(arr)
    return arr.is_valid().to_pylist()


def _fixed_bytes(arr, width):
    """Raw little-endian bytes of each slot of a fixed-width array."""
    buf = arr.buffers()[1]
    base = arr.offset * width
    data = buf.to_pybytes()[base: base + len(arr) * width] if buf is not None else b"\0" * (len(arr) * width)
    return [data[i * width:(i + 1) * width] for i in range(len(arr))]


def array_json(arr):
    """Convert one pyarrow Array (or ChunkedArray) to a list of JSON values."""
    if isinstance(arr, pa.ChunkedArray):
        out = []
        for c in arr.chunks:
            out.extend(array_json(c))
        return out
    t = arr.type
    n = len(arr)
    if pt.is_null(t):
        return [None] * n
    if isinstance(t, pa.ExtensionType):
        return array_json(arr.storage)
    if pt.is_dictionary(t):
        vals = array_json(arr.dictionary)
        idx = arr.indices.to_pylist()
        return [None if i is None else vals[i] for i in idx]
    valid = _valid(arr)
    if pt.is_boolean(t):
        return arr.to_pylist()
    if pt.is_integer(t):
        vals = arr.to_pylist()
        if t.bit_width == 64:
            return [None if v is None else str(v) for v in vals]
        return vals
    if pt.is_floating(t):
        width = t.bit_width // 8
        raw = _fixed_bytes(arr, width)
        return [("0x" + r[::-1].hex()) if ok else None for r, ok in zip(raw, valid)]
    if pt.is_date32(t) or pt.is_time32(t):
        return arr.view(pa.int32()).to_pylist()
    if pt.is_date64(t) or pt.is_time64(t) or pt.is_timestamp(t) or pt.is_duration(t):
        return [None if v is None else str(v) for v in arr.view(pa.int64()).to_pylist()]
    if pt.is_decimal(t):
        width = t.bit_width // 8
        raw = _fixed_bytes(arr, width)
        return [str(int.from_bytes(r, "little", signed=True)) if ok else None for r, ok in zip(raw, valid)]
    if pt.is_string(t) or pt.is_large_string(t):
        return arr.to_pylist()
    if pt.is_binary(t) or pt.is_large_binary(t) or pt.is_fixed_size_binary(t):
        return [None if v is None else base64.b64encode(v).decode("ascii") for v in arr.to_pylist()]
    if pt.is_map(t):
        offs = arr.offsets.to_pylist()
        lo, hi = (offs[0], offs[-1]) if offs else (0, 0)
        entries = arr.values.slice(lo, hi - lo)
        keys = array_json(entries.field(0))
        items = array_json(entries.field(1))
        return [[{"key": keys[j - lo], "value": items[j - lo]} for j in range(offs[i], offs[i + 1])]
                if valid[i] else None for i in range(n)]
    if pt.is_list(t) or pt.is_large_list(t):
        offs = arr.offsets.to_pylist()
        lo, hi = (offs[0], offs[-1]) if offs else (0, 0)
        child = array_json(arr.values.slice(lo, hi - lo))
        return [child[offs[i] - lo:offs[i + 1] - lo] if valid[i] else None for i in range(n)]
    if pt.is_fixed_size_list(t):
        k = t.list_size
        child = array_json(arr.values.slice(arr.offset * k, n * k))
        return [child[i * k:(i + 1) * k] if valid[i] else None for i in range(n)]
    if pt.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        kids = [array_json(arr.field(i)) for i in range(t.num_fields)]
        return [{nm: kid[i] for nm, kid in zip(names, kids)} if valid[i] else None for i in range(n)]
    raise TypeError(f"array_json: unsupported Arrow type {t}")


def table_json(table):
    return {name: array_json(table.column(name)) for name in table.column_names}


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------

def _short(v, limit=200):
    s = repr(v)
    return s if len(s) <= limit else s[:limit] + f"... ({len(s)} chars)"


def first_difference(expected, actual, path="$"):
    """Return a description of the first difference, or None if equal.

    Strict: types must match exactly (a JSON number 1 is not "1", True is not 1),
    floats are compared as their hex bit-pattern strings.
    """
    if type(expected) is not type(actual):
        # bool is a subclass of int in Python: compare types exactly
        return f"{path}: expected {_short(expected)} ({type(expected).__name__}), got {_short(actual)} ({type(actual).__name__})"
    if isinstance(expected, dict):
        if list(expected.keys()) != list(actual.keys()):
            return f"{path}: keys differ: expected {list(expected.keys())}, got {list(actual.keys())}"
        for k in expected:
            d = first_difference(expected[k], actual[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(expected, list):
        for i, (e, a) in enumerate(zip(expected, actual)):
            d = first_difference(e, a, f"{path}[{i}]")
            if d:
                return d
        if len(expected) != len(actual):
            return f"{path}: expected length {len(expected)}, got {len(actual)}"
        return None
    if expected != actual:
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None
