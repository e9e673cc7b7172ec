"""Parse the Rust `{:#?}` Debug text that pylance's LanceFileReader.metadata()
returns for each page encoding, and render it as a compact one-line summary.

The parser is generic (Rust Debug syntax: `Name { field: value, .. }`,
`Name(value)`, `[a, b]`, numbers, strings, `None`, `Some(x)`, bools), so
unknown message types are still printed, just less compactly.
"""
import re

_TOKEN = re.compile(r'\s*(?:(?P<bytes>b"(?:[^"\\]|\\.)*")|(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>-?\d+(?:\.\d+)?(?:e-?\d+)?)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)|(?P<punct>[{}()\[\],:]))', re.S)


class Node:
    """A parsed Debug value: kind is 'struct', 'tuple', 'list', 'scalar'."""

    def __init__(self, kind, name=None, fields=None, items=None, value=None):
        self.kind, self.name, self.fields, self.items, self.value = kind, name, fields, items, value

    def __repr__(self):
        return f"Node({self.kind},{self.name},{self.fields or self.items or self.value})"


def _tokens(text):
    pos, out = 0, []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot tokenize at {pos}: {text[pos:pos+40]!r}")
        pos = m.end()
        for k in ("bytes", "str", "num", "ident", "punct"):
            if m.group(k) is not None:
                out.append((k, m.group(k)))
                break
    return out


_ESC = {"0": 0, "n": 10, "r": 13, "t": 9, "\\": 92, '"': 34, "'": 39}


def _rust_bytes(body):
    out, i = bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            e = body[i + 1]
            if e == "x":
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            out.append(_ESC[e])
            i += 2
            continue
        out += c.encode("utf-8")
        i += 1
    return bytes(out)


def parse(text):
    toks = _tokens(text)
    i = 0

    def peek():
        return toks[i] if i < len(toks) else (None, None)

    def take(expect=None):
        nonlocal i
        t = toks[i]
        if expect is not None and t[1] != expect:
            raise ValueError(f"expected {expect!r}, got {t!r}")
        i += 1
        return t

    def value():
        k, v = take()
        if k in ("str", "num"):
            return Node("scalar", value=v)
        if k == "bytes":
            return Node("bytes", value=_rust_bytes(v[2:-1]))
        if k == "punct" and v == "[":
            items = []
            while peek()[1] != "]":
                items.append(value())
                if peek()[1] == ",":
                    take(",")
            take("]")
            return Node("list", items=items)
        if k == "ident":
            nk, nv = peek()
            if nv == "{":
                take("{")
                fields = {}
                while peek()[1] != "}":
                    _, fname = take()
                    take(":")
                    fields[fname] = value()
                    if peek()[1] == ",":
                        take(",")
                take("}")
                return Node("struct", name=v, fields=fields)
            if nv == "(":
                take("(")
                items = []
                while peek()[1] != ")":
                    items.append(value())
                    if peek()[1] == ",":
                        take(",")
                take(")")
                return Node("tuple", name=v, items=items)
            return Node("scalar", value=v)
        raise ValueError(f"unexpected token {k} {v!r}")

    n = value()
    return n


def _unwrap(n):
    """Strip Some(..) and single-field wrappers like CompressiveEncoding{compression}."""
    while n is not None:
        if n.kind == "tuple" and n.name == "Some" and len(n.items) == 1:
            n = n.items[0]
        elif n.kind == "struct" and n.name in ("CompressiveEncoding", "PageLayout") and len(n.fields) == 1:
            n = next(iter(n.fields.values()))
        elif n.kind == "tuple" and len(n.items) == 1 and n.items[0].kind == "struct" and n.items[0].name == n.name:
            n = n.items[0]   # Flat(Flat {..}) -> Flat {..}
        else:
            return n
    return n


def _snake(name):
    return re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()


def _is_none(n):
    return n is None or (n.kind == "scalar" and n.value == "None")


def _scalar(n):
    n = _unwrap(n)
    if _is_none(n):
        return None
    if n.kind == "scalar":
        return n.value
    if n.kind == "list":
        return f"<{len(n.items)} items>"
    return render(n)


LAYER_NAMES = {
    "RepdefAllValidItem": "ALL_VALID_ITEM", "RepdefAllValidList": "ALL_VALID_LIST",
    "RepdefNullableItem": "NULLABLE_ITEM", "RepdefNullableList": "NULLABLE_LIST",
    "RepdefEmptyableList": "EMPTYABLE_LIST", "RepdefNullAndEmptyList": "NULL_AND_EMPTY_LIST",
}


def render(n):
    """Compact rendering of a compression / layout tree."""
    n = _unwrap(n)
    if _is_none(n):
        return "none"
    if n.kind == "scalar":
        return str(n.value)
    if n.kind == "bytes":
        return "0x" + n.value.hex() if len(n.value) <= 32 else f"<{len(n.value)} bytes>"
    if n.kind == "list":
        return "[" + ",".join(render(x) for x in n.items) + "]"
    f = n.fields or {}
    name = n.name
    if n.kind == "tuple":
        return _snake(name) + "(" + ", ".join(render(x) for x in n.items) + ")"
    g = lambda k: _scalar(f.get(k))
    if name == "Flat":
        return f"flat({g('bits_per_value')})" + ("" if _is_none(_unwrap(f.get('data'))) else f"[data={render(f['data'])}]")
    if name == "InlineBitpacking":
        inner = _unwrap(f.get("values"))
        return f"inline_bitpacking({g('uncompressed_bits_per_value')}" + ("" if _is_none(inner) else ", " + render(inner)) + ")"
    if name == "OutOfLineBitpacking":
        return f"out_of_line_bitpacking({g('uncompressed_bits_per_value')}, {render(f.get('values'))})"
    if name == "Variable":
        v = _unwrap(f.get("values"))
        return f"variable(offsets={render(f.get('offsets'))}" + ("" if _is_none(v) else f", values={render(v)}") + ")"
    if name == "Fsst":
        st = _unwrap(f.get("symbol_table"))
        size = len(st.items) if st is not None and st.kind == "list" else (
            len(st.value) if st is not None and st.kind == "bytes" else "?")
        return f"fsst(symtab={size}B, {render(f.get('values'))})"
    if name == "General":
        c = _unwrap(f.get("compression"))
        cf = c.fields if c is not None and c.kind == "struct" else {}
        scheme = str(_scalar(cf.get("scheme"))).replace("CompressionAlgorithm", "").lower()
        lvl = _scalar(cf.get("level"))
        return f"general+{scheme}" + (f"({lvl})" if lvl not in (None, "None") else "") + f"({render(f.get('values'))})"
    if name == "Rle":
        return f"rle(values={render(f.get('values'))}, runs={render(f.get('run_lengths'))})"
    if name == "ByteStreamSplit":
        return f"bss({render(f.get('values'))})"
    if name == "FixedSizeList":
        return f"fsl({g('items_per_value')}" + (",validity" if g('has_validity') == "true" else "") + f", {render(f.get('values'))})"
    if name == "PackedStruct":
        widths = f.get("bits_per_value", f.get("bits_per_values"))
        return f"packed_struct({render(widths)}, {render(f.get('values'))})"
    if name == "MiniBlockLayout":
        parts = []
        for k, lab in (("rep_compression", "rep"), ("def_compression", "def")):
            if not _is_none(_unwrap(f.get(k))):
                parts.append(f"{lab}={render(f[k])}")
        parts.append(f"values={render(f.get('value_compression'))}")
        if not _is_none(_unwrap(f.get("dictionary"))):
            parts.append(f"dict[{g('num_dictionary_items')}]={render(f['dictionary'])}")
        if g("repetition_index_depth") not in (None, "0"):
            parts.append(f"rep_index_depth={g('repetition_index_depth')}")
        if g("has_large_chunk") == "true":
            parts.append("large_chunk")
        parts += _rest(f, {"rep_compression", "def_compression", "value_compression", "dictionary",
                           "num_dictionary_items", "repetition_index_depth", "has_large_chunk", "layers",
                           "num_buffers", "num_items"})
        parts.append(f"num_items={g('num_items')} num_buffers={g('num_buffers')}")
        parts.append(_layers(f))
        return "miniblock{" + " ".join(parts) + "}"
    if name == "FullZipLayout":
        parts = [f"rep_bits={g('bits_rep')} def_bits={g('bits_def')}"]
        for k in ("bits_per_value", "bits_per_offset"):
            if k in f:
                parts.append(f"{k}={_scalar(f[k])}")
        parts.append(f"values={render(f.get('value_compression'))}")
        parts += _rest(f, {"bits_rep", "bits_def", "details", "value_compression", "layers"}, skip_defaults=True)
        det = _unwrap(f.get("details"))
        if det is not None and not _is_none(det):
            parts.append("details=" + render(det))
        parts.append(_layers(f))
        return "fullzip{" + " ".join(parts) + "}"
    if name == "ConstantLayout":
        parts = []
        iv = _unwrap(f.get("inline_value"))
        if iv is None or _is_none(iv):
            parts.append("no_inline_value")
        else:
            parts.append(f"inline_value={_bytes_repr(iv)}")
        parts += _rest(f, {"inline_value", "layers"}, skip_defaults=True)
        parts.append(_layers(f))
        return "constant{" + " ".join(parts) + "}"
    if name == "BlobLayout":
        return "blob{" + " ".join([f"inner={render(f.get('inner_layout'))}"] +
                                   _rest(f, {"inner_layout", "layers"}, skip_defaults=True) + [_layers(f)]) + "}"
    # generic
    body = ", ".join(f"{k}={render(v)}" for k, v in f.items())
    return f"{_snake(name)}({body})"


def _bytes_repr(n):
    n = _unwrap(n)
    if n.kind == "list":
        b = bytes(int(x.value) for x in n.items)
        return "0x" + b.hex()
    if n.kind == "bytes":
        return "0x" + n.value.hex()
    return render(n)


def _layers(f):
    lay = _unwrap(f.get("layers"))
    if lay is None or lay.kind != "list":
        return "layers=?"
    return "layers=[" + ",".join(LAYER_NAMES.get(x.value, x.value) if x.kind == "scalar" else render(x) for x in lay.items) + "]"


def _rest(f, known, skip_defaults=False):
    out = []
    for k, v in f.items():
        if k in known:
            continue
        u = _unwrap(v)
        if skip_defaults and (_is_none(u) or (u.kind == "scalar" and u.value in ("0", "false"))
                              or (u.kind == "list" and not u.items)):
            continue
        if u.kind == "list" and len(u.items) > 16:
            out.append(f"{k}=<{len(u.items)} items>")
        else:
            out.append(f"{k}={render(v)}")
    return out


def summarize(text):
    """One-line summary of a page's encoding Debug text."""
    return render(parse(text))
