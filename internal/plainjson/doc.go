// Package plainjson writes Arrow record batches as ordinary JSON, the kind
// jq and scripts expect (lance cat --format json and jsonl).
//
// Per Arrow type:
//
//	null                                 null
//	bool                                 true / false
//	int8..int64, uint8..uint64           JSON number, exact (never through float64)
//	float16/32/64                        JSON number (shortest round-trip form);
//	                                     NaN, Infinity, -Infinity as strings
//	decimal32/64/128/256                 string with the exact decimal, e.g. "-12.340"
//	                                     (a number would lose digits in jq's float64)
//	utf8, large_utf8, utf8_view          string
//	binary kinds                         standard base64 string with padding
//	date32, date64                       "2006-01-02"
//	time32, time64                       "15:04:05.999999999"
//	timestamp                            RFC 3339 string; with a time zone the offset
//	                                     of that zone, without one no offset (naive)
//	duration                             JSON number of the unit's ticks
//	list kinds, fixed_size_list          array
//	struct                               object in field order
//	map                                  array of {"key": k, "value": v}
//	dictionary                           the dictionary's value
//
// Each column is compiled once per batch into an appender; rows are then
// appended with strconv's Append functions, without reflection.
package plainjson
