package expr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// regexp_like, regexp_match, regexp_replace and regexp_count with
// DataFusion's flag rules: flags are written before the pattern as
// (?flags) (so only Rust's flags i m s U u x are valid, and '' is an
// error except where DataFusion drops it); 'g' is refused except by
// regexp_replace, where it replaces every match (else only the first).
// A constant pattern (and flags) is compiled at bind time; patterns
// from a column are compiled per row, reusing the last one.

// regexArgs is the pattern (and flags) of a regexp call.
type regexArgs struct {
	fn       string
	pat      int // argument index of the pattern
	flags    int // argument index of the flags, -1 when absent
	re       *rustRegex
	global   bool
	constant bool // re, global and null are set
	null     bool // the constant pattern (or flags, for regexp_replace) is NULL
}

// newRegexArgs compiles the pattern when it and the flags are constants.
func newRegexArgs(c *Call, args []node, pat, flags int) (*regexArgs, error) {
	ra := &regexArgs{fn: c.Name, pat: pat, flags: flags}
	ps, pnull, pok := constString(args[pat])
	fs, fnull, fok := "", true, true
	if flags >= 0 {
		fs, fnull, fok = constString(args[flags])
	}
	if !pok || !fok {
		return ra, nil
	}
	ra.constant = true
	if pnull {
		ra.null = true
		return ra, nil
	}
	re, global, null, err := regexFor(c.Name, ps, fs, flags >= 0, fnull)
	if err != nil {
		return nil, fmt.Errorf("%s (at %d): %w", c.Name, c.At, err)
	}
	ra.re, ra.global, ra.null = re, global, null
	return ra, nil
}

// regexFor compiles pattern pat with flags as function fn does.
func regexFor(fn, pat, flags string, hasFlags, flagsNull bool) (re *rustRegex, global, null bool, err error) {
	full := pat
	if hasFlags {
		if fn == "regexp_replace" {
			switch {
			case flagsNull:
				return nil, false, true, nil
			case flags == "g":
				global = true
			case strings.Contains(flags, "g"):
				global = true
				full = "(?" + strings.ReplaceAll(flags, "g", "") + ")" + pat
			default:
				full = "(?" + flags + ")" + pat
			}
		} else {
			switch {
			case !flagsNull && strings.Contains(flags, "g"):
				return nil, false, false, fmt.Errorf("%w: %s() does not support the \"global\" option", ErrBind, fn)
			case flagsNull, flags == "" && fn != "regexp_match":
			default:
				full = "(?" + flags + ")" + pat
			}
		}
	}
	re, err = compileRustRegex(full)
	return re, global, false, err
}

// regexCache holds the last regex compiled for a row (one per
// evaluation, so nodes stay immutable).
type regexCache struct {
	pat, flags     string
	flagsNull, set bool
	re             *rustRegex
	global, null   bool
}

// at returns the regex of row i: nil with null set when the result is
// NULL (NULL pattern, or NULL flags of regexp_replace).
func (ra *regexArgs) at(cache *regexCache, pats, flags *strCol, i int) (*rustRegex, bool, bool, error) {
	if ra.constant {
		return ra.re, ra.global, ra.null, nil
	}
	p, ok := pats.get(i)
	if !ok {
		return nil, false, true, nil
	}
	var f []byte
	fnull := true
	if ra.flags >= 0 {
		f, ok = flags.get(i)
		fnull = !ok
	}
	if cache.set && cache.pat == string(p) && cache.flags == string(f) && cache.flagsNull == fnull {
		return cache.re, cache.global, cache.null, nil
	}
	re, global, null, err := regexFor(ra.fn, string(p), string(f), ra.flags >= 0, fnull)
	if err != nil {
		if errors.Is(err, ErrUnsupported) {
			return nil, false, false, err
		}
		return nil, false, false, fmt.Errorf("%w: %v", ErrEval, err)
	}
	*cache = regexCache{pat: string(p), flags: string(f), flagsNull: fnull, set: true, re: re, global: global, null: null}
	return re, global, null, nil
}

// cols returns the views of the pattern and flags arguments.
func (ra *regexArgs) cols(in []arrow.Array, n int) (pats, flags strCol) {
	pats.null, flags.null = true, true
	if !ra.constant {
		pats = newStrCol(in[ra.pat], n)
		if ra.flags >= 0 {
			flags = newStrCol(in[ra.flags], n)
		}
	}
	return pats, flags
}

// bindRegexpLike binds regexp_like(s, pattern[, flags]) → Boolean.
func bindRegexpLike(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 3); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1, 2); err != nil {
		return nil, err
	}
	ra, err := newRegexArgs(c, args, 1, flagsIndex(args, 2))
	if err != nil {
		return nil, err
	}
	return newStrFunc(c, args, arrow.FixedWidthTypes.Boolean, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		pats, flags := ra.cols(in, ec.n)
		var cache regexCache
		out := newBoolOut(ec.n)
		for i := 0; i < ec.n; i++ {
			v, ok := s.get(i)
			re, _, null, err := ra.at(&cache, &pats, &flags, i)
			if err != nil {
				return nil, err
			}
			if !ok || null {
				out.null(i)
				continue
			}
			if err := re.checkText(v); err != nil {
				return nil, err
			}
			out.set(i, re.re.Match(v))
		}
		return out.finish(ec.mem), nil
	}), nil
}

// flagsIndex is the argument index of the flags of a call whose flags
// come at position at (0-based), or -1 when the call has no flags.
func flagsIndex(args []node, at int) int {
	if len(args) > at {
		return at
	}
	return -1
}

// bindRegexpMatch binds regexp_match(s, pattern[, flags]) → List(Utf8):
// the capture groups of the first match (groups that did not take part
// left out), the whole match when the pattern has no group, NULL when
// nothing matches.
func bindRegexpMatch(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 3); err != nil {
		return nil, err
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	ra, err := newRegexArgs(c, args, 1, flagsIndex(args, 2))
	if err != nil {
		return nil, err
	}
	elem := arrow.BinaryTypes.String
	return newStrFunc(c, args, arrow.ListOf(elem), func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		pats, flags := ra.cols(in, ec.n)
		var cache regexCache
		lb := array.NewListBuilder(ec.mem, elem)
		defer lb.Release()
		vb := lb.ValueBuilder().(*array.StringBuilder)
		for i := 0; i < ec.n; i++ {
			v, ok := s.get(i)
			re, _, null, err := ra.at(&cache, &pats, &flags, i)
			if err != nil {
				return nil, err
			}
			if !ok || null {
				lb.AppendNull()
				continue
			}
			if err := re.checkText(v); err != nil {
				return nil, err
			}
			loc := re.re.FindSubmatchIndex(v)
			if loc == nil {
				lb.AppendNull()
				continue
			}
			lb.Append(true)
			if len(loc) == 2 {
				vb.Append(bytesString(v[loc[0]:loc[1]]))
				continue
			}
			for g := 2; g+1 < len(loc); g += 2 {
				if loc[g] >= 0 {
					vb.Append(bytesString(v[loc[g]:loc[g+1]]))
				}
			}
		}
		return lb.NewArray(), nil
	}), nil
}

// bindRegexpReplace binds regexp_replace(s, pattern, replacement[,
// flags]). The replacement uses the regex crate's syntax ($1, ${1},
// $name, ${name}, $$) after DataFusion's rewrite of \1 (or \\1) into
// ${1}.
func bindRegexpReplace(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 3, 4); err != nil {
		return nil, err
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	ra, err := newRegexArgs(c, args, 1, flagsIndex(args, 3))
	if err != nil {
		return nil, err
	}
	var konst *replTemplate
	repNull := false
	if r, null, ok := constString(args[2]); ok {
		if null {
			repNull = true
		} else {
			t := parseReplacement(r)
			konst = &t
		}
	}
	typ := stringResultType(args[0].dataType())
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		pats, flags := ra.cols(in, ec.n)
		reps := strCol{null: true}
		if konst == nil && !repNull {
			reps = newStrCol(in[2], ec.n)
		}
		var cache regexCache
		var tmpl replTemplate
		var lastRep []byte
		haveRep := false
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			v, ok := s.get(i)
			re, global, null, err := ra.at(&cache, &pats, &flags, i)
			if err != nil {
				return nil, err
			}
			t := konst
			if t == nil && !repNull {
				r, rok := reps.get(i)
				if rok {
					if !haveRep || string(r) != string(lastRep) {
						tmpl, lastRep, haveRep = parseReplacement(string(r)), r, true
					}
					t = &tmpl
				}
			}
			if !ok || null || t == nil {
				out.null()
				continue
			}
			if err := re.checkText(v); err != nil {
				return nil, err
			}
			out.data = regexReplace(out.data, v, re, t, global)
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// regexReplace appends s with the first (global: every) match of re
// replaced by the expansion of t.
func regexReplace(dst, s []byte, re *rustRegex, t *replTemplate, global bool) []byte {
	var matches [][]int
	if global {
		matches = re.re.FindAllSubmatchIndex(s, -1)
	} else if loc := re.re.FindSubmatchIndex(s); loc != nil {
		matches = [][]int{loc}
	}
	last := 0
	for _, loc := range matches {
		dst = append(dst, s[last:loc[0]]...)
		dst = t.expand(dst, s, loc, re)
		last = loc[1]
	}
	return append(dst, s[last:]...)
}

// replPiece is a literal (group -1), a numbered group reference or a
// named one (group -2).
type replPiece struct {
	lit   string
	group int
	name  string
}

// replTemplate is a parsed replacement string.
type replTemplate struct{ pieces []replPiece }

// parseReplacement parses a regexp_replace replacement: DataFusion first
// rewrites one or two backslashes followed by digits into ${digits},
// then the regex crate's interpolation applies.
func parseReplacement(rep string) replTemplate {
	var conv strings.Builder
	for i := 0; i < len(rep); {
		if rep[i] == '\\' {
			j := i + 1
			if j < len(rep) && rep[j] == '\\' && digitsAt(rep, j+1) > 0 {
				j++
			}
			if n := digitsAt(rep, j); n > 0 {
				conv.WriteString("${" + rep[j:j+n] + "}")
				i = j + n
				continue
			}
		}
		conv.WriteByte(rep[i])
		i++
	}
	return parseInterpolation(conv.String())
}

// digitsAt returns the length in bytes of the run of decimal digits
// (Unicode Nd, as the regex crate's \d) at s[i:].
func digitsAt(s string, i int) int {
	n := 0
	for i+n < len(s) {
		r, w := utf8.DecodeRuneInString(s[i+n:])
		if !unicode.IsDigit(r) {
			break
		}
		n += w
	}
	return n
}

// parseInterpolation parses the regex crate's replacement syntax.
func parseInterpolation(rep string) replTemplate {
	var t replTemplate
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.pieces = append(t.pieces, replPiece{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for len(rep) > 0 {
		k := strings.IndexByte(rep, '$')
		if k < 0 {
			lit.WriteString(rep)
			break
		}
		lit.WriteString(rep[:k])
		rep = rep[k:]
		if len(rep) > 1 && rep[1] == '$' {
			lit.WriteByte('$')
			rep = rep[2:]
			continue
		}
		name, end, ok := capRef(rep)
		if !ok {
			lit.WriteByte('$')
			rep = rep[1:]
			continue
		}
		rep = rep[end:]
		flush()
		if n, err := strconv.ParseUint(strings.TrimPrefix(name, "+"), 10, 64); err == nil {
			t.pieces = append(t.pieces, replPiece{group: int(min(n, 1<<31))})
		} else {
			t.pieces = append(t.pieces, replPiece{group: -2, name: name})
		}
	}
	flush()
	return t
}

// capRef reads a $name or ${name} reference at the start of rep.
func capRef(rep string) (name string, end int, ok bool) {
	if len(rep) <= 1 || rep[0] != '$' {
		return "", 0, false
	}
	if rep[1] == '{' {
		k := strings.IndexByte(rep[2:], '}')
		if k < 0 {
			return "", 0, false
		}
		return rep[2 : 2+k], 2 + k + 1, true
	}
	j := 1
	for j < len(rep) && (isASCIIAlnum(rep[j]) || rep[j] == '_') {
		j++
	}
	if j == 1 {
		return "", 0, false
	}
	return rep[1:j], j, true
}

// expand appends the template's expansion for the match loc of src.
func (t *replTemplate) expand(dst, src []byte, loc []int, re *rustRegex) []byte {
	for _, p := range t.pieces {
		g := p.group
		switch g {
		case -1:
			dst = append(dst, p.lit...)
			continue
		case -2:
			var found bool
			if g, found = re.names[p.name]; !found {
				continue
			}
		}
		if 2*g+1 < len(loc) && loc[2*g] >= 0 {
			dst = append(dst, src[loc[2*g]:loc[2*g+1]]...)
		}
	}
	return dst
}

// bindRegexpCount binds regexp_count(s, pattern[, start[, flags]]) →
// Int64: the number of non-overlapping matches in s from code point
// start (1-based) on; 0 for a NULL s or pattern.
func bindRegexpCount(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 4); err != nil {
		return nil, err
	}
	for _, i := range []int{0, 1, 3} {
		if i < len(args) {
			if err := b.toStringArg(c, args, i); err != nil {
				return nil, err
			}
		}
	}
	if err := wantInts(c, args, 2); err != nil {
		return nil, err
	}
	ra, err := newRegexArgs(c, args, 1, flagsIndex(args, 3))
	if err != nil {
		return nil, err
	}
	typ := arrow.PrimitiveTypes.Int64
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		pats, flags := ra.cols(in, ec.n)
		start := intCol{vals: []int64{1}, single: true}
		if len(in) > 2 {
			var err error
			if start, err = newIntCol(in[2], ec.n); err != nil {
				return nil, err
			}
		}
		var cache regexCache
		vals := make([]int64, ec.n)
		for i := range vals {
			v, ok := s.get(i)
			re, _, null, err := ra.at(&cache, &pats, &flags, i)
			if err != nil {
				return nil, err
			}
			if !ok || null {
				continue
			}
			from, sok := start.get(i)
			if !sok {
				from = 1 // a NULL start counts from the start (DataFusion's array path)
			}
			if from < 1 {
				return nil, fmt.Errorf("%w: regexp_count() requires start to be 1 based", ErrEval)
			}
			if from > 1 {
				v = suffixAfterRunes(v, from-1)
			}
			if err := re.checkText(v); err != nil {
				return nil, err
			}
			vals[i] = int64(len(re.re.FindAllIndex(v, -1)))
		}
		return intResult(ec.mem, typ, vals, nil), nil
	}), nil
}

// suffixAfterRunes returns s without its first n code points.
func suffixAfterRunes(s []byte, n int64) []byte {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRune(s[i:])
		i += w
	}
	return s[i:]
}
