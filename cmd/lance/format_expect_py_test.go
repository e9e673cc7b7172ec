package main

// The Python half of TestCatPlainJSONMatchesPylance: it reads each Lance
// file or dataset with pylance and prints, per path, the rows pyarrow's
// to_pylist gives, put in the documented --format json form (doc of
// internal/plainjson). Floats are tagged {"$f64": repr(value)} (and $f32,
// $f16 with numpy's shortest binary16 repr) so that the Go side compares
// them at their own width.
const plainExpectPy = `
# Reads each path (Lance file or dataset) with pylance and prints one JSON
# line: the rows as pyarrow's to_pylist gives them, put in lance cat
# --format json's documented form. Floats are tagged {"$f64": repr} (and
# $f32, $f16) so the Go side compares them at their width.
import base64, json, math, os, sys
import numpy as np
import pyarrow as pa
import pyarrow.types as pt
import lance
from lance.file import LanceFileReader

PER = {"s": 1, "ms": 1000, "us": 10**6, "ns": 10**9}


def read(path):
    if os.path.isdir(path):
        return lance.dataset(path).to_table()
    return LanceFileReader(path).read_all().to_table()


def has_ns(t):
    if (pt.is_timestamp(t) or pt.is_time64(t) or pt.is_duration(t)) and t.unit == "ns":
        return True
    if pt.is_struct(t):
        return any(has_ns(f.type) for f in t)
    if pt.is_map(t):
        return has_ns(t.key_type) or has_ns(t.item_type)
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t) or pt.is_dictionary(t):
        return has_ns(t.value_type)
    return False


class Raw(int):
    """A temporal value with no ISO form in years 0000-9999: its integer."""


def pylist(col):
    """to_pylist, except for temporal columns where it fails: nanosecond
    values (which to_pylist refuses without pandas) come as (value from
    to_pylist at microseconds, nanosecond rest, 0), values in year 0 as
    (the value 400 years later, 0, 400), values outside 0000-9999 as Raw."""
    t = col.type
    if pt.is_duration(t):  # to_pylist's timedelta overflows past 999999999 days
        return col.cast(pa.int64()).to_pylist()
    if not has_ns(t):
        try:
            return col.to_pylist()
        except (OverflowError, ValueError):
            if not (pt.is_temporal(t) and not pt.is_duration(t)):
                raise
    elif not (pt.is_timestamp(t) or pt.is_time64(t) or pt.is_duration(t)):
        raise TypeError(f"nanoseconds nested in {t}")
    ints = col.cast(pa.int64()).to_pylist()
    if pt.is_duration(t):
        return ints
    return [None if v is None else one(v, t) for v in ints]


def one(v, t):
    base, nano, tt = v, 0, t
    if (pt.is_timestamp(t) or pt.is_time64(t)) and t.unit == "ns":
        base, nano = v // 1000, v % 1000
        tt = pa.timestamp("us", t.tz) if pt.is_timestamp(t) else pa.time64("us")
    for shift in (0, 400):
        if shift and pt.is_time(t):
            break
        days = 146097 if shift else 0  # the Gregorian calendar repeats every 400 years
        if pt.is_date32(t):
            delta = days
        elif pt.is_date64(t):
            delta = days * 86400000
        elif pt.is_timestamp(tt):
            delta = days * 86400 * PER[tt.unit]
        else:
            delta = 0
        try:
            obj = pa.array([base + delta], tt).to_pylist()[0]
        except (OverflowError, ValueError, pa.ArrowInvalid):
            continue
        if pt.is_time(t) or 0 <= obj.year - shift <= 9999:
            return (obj, nano, shift)
        break
    return Raw(v)


def fraction(micro, nano=0):
    n = micro * 1000 + nano
    return "" if n == 0 else "." + f"{n:09d}".rstrip("0")


def floatjson(v, tag):
    if math.isnan(v):
        s = "NaN"
    elif math.isinf(v):
        s = "Infinity" if v > 0 else "-Infinity"
    elif tag == "$f16":
        s = str(np.float16(v))
    else:
        s = repr(float(v))
    return {tag: s}


def conv(v, t):
    if v is None:
        return None
    if pt.is_dictionary(t):
        return conv(v, t.value_type)
    if isinstance(t, pa.ExtensionType):
        return conv(v, t.storage_type)
    if pt.is_boolean(t) or pt.is_integer(t):
        return v
    if pt.is_float16(t):
        return floatjson(v, "$f16")
    if pt.is_float32(t):
        return floatjson(v, "$f32")
    if pt.is_float64(t):
        return floatjson(v, "$f64")
    if pt.is_string(t) or pt.is_large_string(t):
        return v
    if pt.is_binary(t) or pt.is_large_binary(t) or pt.is_fixed_size_binary(t):
        return base64.b64encode(v).decode()
    if pt.is_decimal(t):
        return format(v, "f")
    if isinstance(v, Raw):
        return int(v)
    v, nano, shift = v if isinstance(v, tuple) else (v, 0, 0)
    if pt.is_date(t):
        return f"{v.year - shift:04d}-{v.month:02d}-{v.day:02d}"
    if pt.is_time(t):
        return f"{v.hour:02d}:{v.minute:02d}:{v.second:02d}" + fraction(v.microsecond, nano)
    if pt.is_timestamp(t):
        s = f"{v.year - shift:04d}-{v.month:02d}-{v.day:02d}T{v.hour:02d}:{v.minute:02d}:{v.second:02d}" + fraction(v.microsecond, nano)
        if t.tz is None:
            return s
        off = int(v.utcoffset().total_seconds())
        if off == 0:
            return s + "Z"
        sign, off = ("-", -off) if off < 0 else ("+", off)
        s += f"{sign}{off // 3600:02d}:{off // 60 % 60:02d}"
        return s + (f":{off % 60:02d}" if off % 60 else "")
    if pt.is_duration(t):
        if isinstance(v, int):
            return v
        per = PER[t.unit]
        return (v.days * 86400 + v.seconds) * per + v.microseconds * per // 10**6
    if pt.is_map(t):
        return [{"key": conv(k, t.key_type), "value": conv(x, t.item_type)} for k, x in v]
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t):
        return [conv(x, t.value_type) for x in v]
    if pt.is_struct(t):
        return {f.name: conv(v[f.name], f.type) for f in t}
    raise TypeError(f"no plain JSON form known for {t}")


for path in json.load(sys.stdin):
    try:
        table = read(path)
    except Exception as e:  # pylance cannot read it: nothing to compare
        print(json.dumps({"path": path, "unreadable": str(e)}))
        continue
    try:
        cols = [[conv(v, f.type) for v in pylist(table.column(i))] for i, f in enumerate(table.schema)]
        rows = [dict(zip(table.column_names, r)) for r in zip(*cols)] if cols else []
        print(json.dumps({"path": path, "columns": table.column_names, "num_rows": table.num_rows, "rows": rows}))
    except Exception as e:
        print(json.dumps({"path": path, "error": f"{type(e).__name__}: {e}"}))
`
