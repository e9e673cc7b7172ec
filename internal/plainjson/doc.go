// Package plainjson writes Arrow record batches as ordinary JSON, the kind
// jq and scripts expect (lance cat --format json and jsonl): each row an
// object keyed by column name, in schema order.
//
// Per Arrow type:
//
//	null                            null (and every null value)
//	bool                            true / false
//	int8..int64, uint8..uint64      JSON number, exact (never through float64)
//	float16, float32, float64       JSON number, the shortest decimal that reads
//	                                back as the same float of that width (0.1,
//	                                1e+21, -0, 5e-324); NaN, +Inf and -Inf as the
//	                                strings "NaN", "Infinity", "-Infinity"
//	decimal32/64/128/256            string holding the exact decimal at the
//	                                column's scale: "-12.340", "0.001", "1200"
//	utf8, large_utf8, utf8_view     string (invalid UTF-8 bytes become U+FFFD)
//	binary kinds, fixed_size_binary standard base64 string, padded
//	date32, date64                  "2006-01-02"
//	time32, time64                  "15:04:05", fraction digits as needed
//	                                ("15:04:05.25")
//	timestamp                       RFC 3339: with a time zone, the local time in
//	                                that zone and its offset ("…T09:30:00-05:00",
//	                                "Z" for UTC); without one, the naive wall time
//	                                and no offset ("2006-01-02T15:04:05.5")
//	duration                        JSON number of the column's unit
//	intervals                       {"months":…}, {"days":…,"milliseconds":…},
//	                                {"months":…,"days":…,"nanoseconds":…}
//	list kinds, fixed_size_list     array
//	struct                          object, fields in schema order
//	map                             array of {"key": k, "value": v}, in stored
//	                                order (keys may repeat and need not be strings)
//	dictionary                      the dictionary's value
//	extension types                 as their storage type
//
// Decimals are strings so that no digit is lost: a JSON number with 38
// digits is read as a float64 by jq and most JSON libraries. Floats are
// numbers because the shortest form of a float32 or float64 reads back
// exactly at that width. Dates, times and timestamps whose ISO form would
// fall outside the years 0000-9999 (or a time of day outside 00:00-24:00)
// print as their raw integer value instead, since RFC 3339 has no form for
// them.
//
// Each column is compiled once per batch into an appender; rows are then
// appended with strconv's Append functions, without reflection or
// per-value allocation (decimals wider than 64 bits excepted).
package plainjson
