package filewriter

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lebits"
)

// ruleParams are the default dictionary parameters with the given divisor.
func ruleParams(divisor uint64) encodingParams {
	return encodingParams{dictTooSmall: defaultDictTooSmall, dictSizeRatio: defaultDictSizeRatio, dictDivisor: divisor, dictMaxEntries: maxDictEntries}
}

// stringValues builds a variable-width value block; a nil entry of strs is
// a null slot (stored as a zero-length value, as the writer gathers it).
func stringValues(strs []*string, large bool) *values {
	v := &values{Values: codecs.Values{Kind: valVariable, N: len(strs), Large: large, Offsets: make([]uint64, 1, len(strs)+1)}}
	for i, s := range strs {
		if s == nil {
			if v.Valid == nil {
				v.Valid = make([]bool, len(strs))
				for j := range i {
					v.Valid[j] = true
				}
			}
		} else {
			v.Data = append(v.Data, *s...)
			if v.Valid != nil {
				v.Valid[i] = true
			}
		}
		v.Offsets = append(v.Offsets, uint64(len(v.Data)))
	}
	return v
}

// fixedValues builds a 64- or 128-bit block whose value i is ids[i].
func fixedValues(bits int, ids []int) *values {
	v := &values{Values: codecs.Values{Kind: valFixed, N: len(ids), Bits: bits}}
	for _, id := range ids {
		v.Data = lebits.AppendUint(v.Data, uint64(id), 8)
		if bits == 128 {
			v.Data = lebits.AppendUint(v.Data, 0, 8)
		}
	}
	return v
}

// TestDictSampleSlots checks the size of Lance's sample of a page.
func TestDictSampleSlots(t *testing.T) {
	for _, tc := range []struct {
		n, per, total int
		ok            bool
	}{
		{n: 1023},
		{n: 1024, per: 32, total: 1024, ok: true},
		{n: 2047, per: 63, total: 2016, ok: true},
		{n: 4095, per: 127, total: 4064, ok: true},
		{n: 4096, per: 128, total: 4096, ok: true},
		{n: 5001, per: 128, total: 4096, ok: true},
		{n: 1_000_000, per: 128, total: 4096, ok: true},
	} {
		blocks, per, total, ok := sampleSlots(tc.n)
		if ok != tc.ok || (ok && (blocks != 32 || per != tc.per || total != tc.total)) {
			t.Errorf("n=%d: blocks %d per %d total %d ok %v, want 32 %d %d %v", tc.n, blocks, per, total, ok, tc.per, tc.total, tc.ok)
		}
		if ok && total != len(testSamplePositions(tc.n)) {
			t.Errorf("n=%d: total %d, sample positions %d", tc.n, total, len(testSamplePositions(tc.n)))
		}
	}
}

// TestDictRuleDecision checks the dictionary decision on crafted pages at
// the boundaries of each part of the rule: the sampling gate's projection
// ceil(r*n) against the threshold min(n/divisor, 100000), its 0.98 unique
// ratio, and the exact build's entry, size and dictionary-bytes budgets.
func TestDictRuleDecision(t *testing.T) {
	cycle := func(n, distinct int) []int {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i % distinct
		}
		return ids
	}
	for _, tc := range []struct {
		name    string
		v       *values
		divisor uint64
		gate    bool           // shouldDictionary admits the page
		dict    bool           // and the exact build stays within budget
		ver     format.Version // 0: 2.1
	}{
		// r = 2048/4096 = 0.5: ceil(0.5*n) against n/2.
		{"proj=threshold n=5000", stringValues(sampledStrings(5000, 2048, 0), false), 2, true, true, 0},
		{"proj=threshold+1 n=5001", stringValues(sampledStrings(5001, 2048, 0), false), 2, false, false, 0},
		// The 100 000 cap: ceil(0.5*200000) = 100000, ceil(0.5*200001) = 100001.
		{"proj=cap n=200000", stringValues(sampledStrings(200_000, 2048, 0), false), 2, true, true, 0},
		{"proj=cap+1 n=200001", stringValues(sampledStrings(200_001, 2048, 0), false), 2, false, false, 0},
		// 2016 samples below 4096 rows: ceil(1007/2016*2047) = 1023, ceil(1008/2016*2047) = 1024.
		{"small sample proj=threshold", stringValues(sampledStrings(2047, 1007, 0), false), 2, true, true, 0},
		{"small sample proj=threshold+1", stringValues(sampledStrings(2047, 1008, 0), false), 2, false, false, 0},
		// Null slots are the value "" in the sample: 2047 strings + null = 2048.
		// Without the null, 2047/4096*5001 would project 2500 and pass.
		{"null sampled proj=threshold", stringValues(sampledStrings(5000, 2048, 7), false), 2, true, true, 0},
		{"null sampled proj=threshold+1", stringValues(sampledStrings(5001, 2048, 7), false), 2, false, false, 0},
		// The unique-ratio gate: 4014/4096 < 0.98 <= 4015/4096 (threshold n).
		{"ratio below 0.98", stringValues(sampledStrings(100_000, 4014, 0), false), 1, true, true, 0},
		{"ratio 0.98", stringValues(sampledStrings(100_000, 4015, 0), false), 1, false, false, 0},
		// Below 1024 values there is no gate; the build stops above n/2 entries.
		{"entries=threshold", stringValues(cycleStrings(1000, 500, 40), false), 2, true, true, 0},
		{"entries=threshold+1", stringValues(cycleStrings(1000, 501, 40), false), 2, true, false, 0},
		{"no gate, all distinct", stringValues(cycleStrings(1000, 1000, 40), false), 1, true, false, 0},
		{"too small", stringValues(cycleStrings(99, 1, 40), false), 2, false, false, 0},
		// Size budget, 32-bit offsets: data 10000 + 4*1001 = 14004, max 11203;
		// encoded = 10e + 4*1000 + 4*(e+1): e=514 -> 11200, e=515 -> 11214.
		{"size=budget", stringValues(cycleStrings(1000, 514, 10), false), 1, true, true, 0},
		{"size>budget", stringValues(cycleStrings(1000, 515, 10), false), 1, true, false, 0},
		// 64-bit offsets: data 10000 + 8*1001 = 18008, max 14406;
		// encoded = 10e + 4*1000 + 8*(e+1): e=577 -> 14394, e=578 -> 14412.
		{"large size=budget", stringValues(cycleStrings(1000, 577, 10), true), 1, true, true, 0},
		{"large size>budget", stringValues(cycleStrings(1000, 578, 10), true), 1, true, false, 0},
		// Fixed 128-bit: max = 16000*0.8 = 12800; encoded = 16e + 4*1000.
		{"fixed size=budget", fixedValues(128, cycle(1000, 550)), 1, true, true, 0},
		{"fixed size>budget", fixedValues(128, cycle(1000, 551)), 1, true, false, 0},
		// Fixed 64-bit, 2.2 only: max = 8000*0.8 = 6400; encoded = 8e + 4*1000.
		{"int64 size=budget", fixedValues(64, cycle(1000, 300)), 1, true, true, format.V2_2},
		{"int64 size>budget", fixedValues(64, cycle(1000, 301)), 1, true, false, format.V2_2},
		{"int64 in 2.1", fixedValues(64, cycle(1000, 10)), 1, false, false, 0},
		// Dictionary value bytes are capped at 8 MiB = 8388608: 33554*250
		// fits, 33555*250 does not (values stay below full-zip's 256 bytes).
		{"dict bytes=cap", stringValues(cycleStrings(67_110, 33_554, 250), false), 1, true, true, 0},
		{"dict bytes>cap", stringValues(cycleStrings(67_110, 33_555, 250), false), 1, true, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ver := tc.ver
			if ver == 0 {
				ver = format.V2_1
			}
			b, gate := shouldDictionary(tc.v, ruleParams(tc.divisor), ver)
			dict := false
			if gate {
				set, ind := buildDictionary(tc.v, &b)
				dict = set != nil
				if dict && (ind.N != tc.v.N || uint64(len(set.first)) > b.maxEntries) {
					t.Fatalf("build: %d indices, %d entries (max %d)", ind.N, len(set.first), b.maxEntries)
				}
			}
			if gate != tc.gate || dict != tc.dict {
				r, _ := sampleUniqueRatio(tc.v)
				t.Fatalf("gate %v dict %v, want %v %v (r=%v, budget %+v)", gate, dict, tc.gate, tc.dict, r, b)
			}
		})
	}
}

// TestDictRuleBuildMatchesEncode checks that a budgeted build numbers
// values like the unbudgeted one used for Arrow dictionary columns.
func TestDictRuleBuildMatchesEncode(t *testing.T) {
	v := stringValues(strPtrs("b", "a", "b", "", "c", "a"), false)
	b := dictBudget{maxEntries: 10, maxEncoded: 1 << 20, maxValueBytes: 1 << 20}
	s1, i1 := buildDictionary(v, &b)
	s2, i2 := buildDictionary(v, nil)
	if s1 == nil || !bytes.Equal(i1.Data, i2.Data) || len(s1.first) != 4 || len(s2.first) != 4 {
		t.Fatalf("budgeted %v, unbudgeted %v", i1, i2)
	}
}

// testSamplePositions lists the rows Lance samples in an n-value page:
// 32 blocks starting at b*n/32, the first min(n,4096)/32 rows of each.
func testSamplePositions(n int) []int {
	if n < 1024 {
		return nil
	}
	per := min(n, 4096) / 32
	var pos []int
	for b := range 32 {
		lo, hi := b*n/32, (b+1)*n/32
		for i := lo; i < lo+per && i < hi; i++ {
			pos = append(pos, i)
		}
	}
	return pos
}

// sampledStrings returns n values whose sample (testSamplePositions) holds
// exactly distinct different values and whose other rows are one long
// filler, so that the exact dictionary stays cheap. With nullAt > 0 every
// nullAt-th sampled row is null instead, and the sample then holds
// distinct-1 strings and the null.
func sampledStrings(n, distinct, nullAt int) []*string {
	filler := "filler-value-long-enough-to-pay"
	out := make([]*string, n)
	for i := range out {
		out[i] = &filler
	}
	pos := testSamplePositions(n)
	names := make([]string, distinct)
	for k := range names {
		names[k] = fmt.Sprintf("sampled-value-%06d", k)
	}
	for k, i := range pos {
		switch {
		case nullAt > 0 && k%nullAt == 0:
			out[i] = nil
		case nullAt > 0:
			out[i] = &names[k%(distinct-1)]
		default:
			out[i] = &names[k%distinct]
		}
	}
	return out
}

// cycleStrings returns n values cycling through distinct values of size
// bytes each.
func cycleStrings(n, distinct, size int) []*string {
	names := make([]string, distinct)
	for k := range names {
		names[k] = fmt.Sprintf("%0*d", size, k)
	}
	out := make([]*string, n)
	for i := range out {
		out[i] = &names[i%distinct]
	}
	return out
}

// strPtrs turns strings into the pointers stringValues takes.
func strPtrs(ss ...string) []*string {
	out := make([]*string, len(ss))
	for i := range ss {
		out[i] = &ss[i]
	}
	return out
}
