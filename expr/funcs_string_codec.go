package expr

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
)

// Hashes and encodings: md5, digest, encode, decode, chr, to_hex.

// wantStringOrBinary checks that argument i is a string, a binary or NULL.
func wantStringOrBinary(c *Call, args []node, i int) error {
	t := args[i].dataType()
	if isStringOrNull(t) || t.ID() == arrow.BINARY || t.ID() == arrow.LARGE_BINARY {
		return nil
	}
	return fmt.Errorf("%w: function '%s' requires String or Binary, but received %s (argument %d at %d)",
		ErrBind, c.Name, t, i+1, c.Args[i].Pos())
}

// constString returns the value of a constant string argument, and
// whether it is one (false for a column; NULL gives ok with null set).
func constString(n node) (s string, null, ok bool) {
	cn, isConst := asConst(n)
	if !isConst {
		return "", false, false
	}
	col := newStrCol(cn.val, 1)
	v, valid := col.get(0)
	if !valid {
		return "", true, true
	}
	return string(v), false, true
}

// bindMD5 binds md5(s): the lower-case hex MD5 of a string or binary.
func bindMD5(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := wantStringOrBinary(c, args, 0); err != nil {
		return nil, err
	}
	typ := arrow.BinaryTypes.String
	return newStrFunc(c, args, typ, strToStr(typ, func(dst, v []byte) []byte {
		sum := md5.Sum(v)
		return hex.AppendEncode(dst, sum[:])
	})), nil
}

// digestAlgorithms are the algorithms of digest(s, name) (DataFusion's
// names; blake3 is refused here: no BLAKE3 package is a dependency).
var digestAlgorithms = map[string]func(dst, v []byte) []byte{
	"md5":     func(dst, v []byte) []byte { s := md5.Sum(v); return append(dst, s[:]...) },
	"sha224":  func(dst, v []byte) []byte { s := sha256.Sum224(v); return append(dst, s[:]...) },
	"sha256":  func(dst, v []byte) []byte { s := sha256.Sum256(v); return append(dst, s[:]...) },
	"sha384":  func(dst, v []byte) []byte { s := sha512.Sum384(v); return append(dst, s[:]...) },
	"sha512":  func(dst, v []byte) []byte { s := sha512.Sum512(v); return append(dst, s[:]...) },
	"blake2s": func(dst, v []byte) []byte { s := blake2s.Sum256(v); return append(dst, s[:]...) },
	"blake2b": func(dst, v []byte) []byte { s := blake2b.Sum512(v); return append(dst, s[:]...) },
}

// bindDigest binds digest(s, algorithm): the hash as Binary; the
// algorithm must be a constant, as in DataFusion.
func bindDigest(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStringOrBinary(c, args, 0); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 1); err != nil {
		return nil, err
	}
	name, null, ok := constString(args[1])
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: digest using dynamically decided method is not supported (at %d)", ErrBind, c.Args[1].Pos())
	case null:
		return nil, fmt.Errorf("%w: digest needs a non-NULL algorithm (at %d)", ErrBind, c.Args[1].Pos())
	case name == "blake3":
		return nil, fmt.Errorf("%w: digest with blake3 (at %d)", ErrUnsupported, c.Args[1].Pos())
	}
	f, known := digestAlgorithms[name]
	if !known {
		return nil, fmt.Errorf("%w: there is no built-in digest algorithm named '%s', currently supported algorithms are: md5, sha224, sha256, sha384, sha512, blake2s, blake2b, blake3 (at %d)",
			ErrBind, name, c.Args[1].Pos())
	}
	typ := arrow.BinaryTypes.Binary
	return newStrFunc(c, args[:1], typ, strToStr(typ, f)), nil
}

// encodingArg reads the constant encoding of encode/decode: hex, base64
// (unpadded) or base64pad.
func encodingArg(c *Call, args []node) (string, error) {
	if err := wantStrings(c, args, 1); err != nil {
		return "", err
	}
	name, null, ok := constString(args[1])
	switch {
	case !ok:
		return "", fmt.Errorf("%w: %s: encoding must be a scalar; array specified encoding is not supported (at %d)", ErrBind, c.Name, c.Args[1].Pos())
	case null:
		return "", fmt.Errorf("%w: %s: encoding must be a non-null string (at %d)", ErrBind, c.Name, c.Args[1].Pos())
	}
	switch name {
	case "hex", "base64", "base64pad":
		return name, nil
	}
	return "", fmt.Errorf("%w: there is no built-in encoding named '%s', currently supported encodings are: base64, base64pad, hex (at %d)",
		ErrBind, name, c.Args[1].Pos())
}

// bindEncode binds encode(s, encoding): a string or binary as text.
func bindEncode(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStringOrBinary(c, args, 0); err != nil {
		return nil, err
	}
	enc, err := encodingArg(c, args)
	if err != nil {
		return nil, err
	}
	typ := arrow.BinaryTypes.String
	if t := args[0].dataType().ID(); t == arrow.LARGE_STRING || t == arrow.LARGE_BINARY {
		typ = arrow.BinaryTypes.LargeString
	}
	f := hex.AppendEncode
	switch enc {
	case "base64":
		f = base64.RawStdEncoding.AppendEncode
	case "base64pad":
		f = base64.StdEncoding.AppendEncode
	}
	return newStrFunc(c, args[:1], typ, strToStr(typ, f)), nil
}

// bindDecode binds decode(s, encoding): text back to Binary; text that
// does not decode fails the query. base64 accepts the padding or any
// shorter part of it, as DataFusion's decoder does.
func bindDecode(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStringOrBinary(c, args, 0); err != nil {
		return nil, err
	}
	enc, err := encodingArg(c, args)
	if err != nil {
		return nil, err
	}
	typ := arrow.BinaryTypes.Binary
	if t := args[0].dataType().ID(); t == arrow.LARGE_STRING || t == arrow.LARGE_BINARY {
		typ = arrow.BinaryTypes.LargeBinary
	}
	return newStrFunc(c, args[:1], typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		col := newStrCol(in[0], ec.n)
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			v, ok := col.get(i)
			if !ok {
				out.null()
				continue
			}
			var err error
			if enc == "hex" {
				out.data, err = hex.AppendDecode(out.data, v)
			} else {
				out.data, err = appendBase64(out.data, v)
			}
			if err != nil {
				return nil, fmt.Errorf("%w: failed to decode value using %s: %w", ErrEval, enc, err)
			}
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// appendBase64 decodes standard base64 whose padding may be left out or
// cut short; the unused bits of the last symbol must be zero.
func appendBase64(dst, v []byte) ([]byte, error) {
	body := v
	pad := 0
	for len(body) > 0 && body[len(body)-1] == '=' {
		body = body[:len(body)-1]
		pad++
	}
	if len(body)%4 == 1 {
		return dst, fmt.Errorf("invalid input length: %d", len(body))
	}
	if want := (4 - len(body)%4) % 4; pad > want {
		return dst, fmt.Errorf("invalid symbol '=' at offset %d", len(body)+want)
	}
	for i, ch := range body {
		if ch == '\r' || ch == '\n' || ch == '=' {
			return dst, fmt.Errorf("invalid symbol %d, offset %d", ch, i)
		}
	}
	return base64.RawStdEncoding.Strict().AppendDecode(dst, body)
}

// bindChr binds chr(n): the code point n as a string; n that is not a
// Unicode scalar value fails the query.
func bindChr(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := wantInts(c, args, 0); err != nil {
		return nil, err
	}
	typ := arrow.BinaryTypes.String
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		col, err := newIntCol(in[0], ec.n)
		if err != nil {
			return nil, err
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			v, ok := col.get(i)
			if !ok {
				out.null()
				continue
			}
			if v < 0 || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
				return nil, fmt.Errorf("%w: invalid Unicode scalar value: %d", ErrEval, v)
			}
			out.data = utf8.AppendRune(out.data, rune(v))
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// bindToHex binds to_hex(n): lower-case hex digits; negative numbers
// as their 64-bit two's complement.
func bindToHex(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	t := args[0].dataType()
	if !isInteger(t) && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("%w: function 'to_hex' requires Integer, but received %s (at %d)", ErrBind, t, c.Args[0].Pos())
	}
	typ := arrow.BinaryTypes.String
	unsigned64 := t.ID() == arrow.UINT64
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		out := newStrOut(ec.n, 0)
		if a, ok := in[0].(*array.Uint64); ok && unsigned64 {
			single := a.Len() == 1 && ec.n != 1
			for i := 0; i < ec.n; i++ {
				j := i
				if single {
					j = 0
				}
				if j >= a.Len() || a.IsNull(j) {
					out.null()
					continue
				}
				out.data = strconv.AppendUint(out.data, a.Value(j), 16)
				out.commit()
			}
			return out.finish(ec.mem, typ)
		}
		col, err := newIntCol(in[0], ec.n)
		if err != nil {
			return nil, err
		}
		for i := 0; i < ec.n; i++ {
			v, ok := col.get(i)
			if !ok {
				out.null()
				continue
			}
			out.data = strconv.AppendUint(out.data, uint64(v), 16)
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}
