package expr

// timeValueCases were generated with pylance 14.0.2 (a projection of each
// expression over the probe dataset; /tmp/tq/gen/gen.py).
var timeValueCases = []timeValueCase{
	{"date_trunc('year', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1577836800000000", "1609459200000000"}},
	{"date_trunc('quarter', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1585699200000000", "1609459200000000"}},
	{"date_trunc('month', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588291200000000", "1609459200000000"}},
	{"date_trunc('week', ts)", "timestamp[us]", []string{"1609113600000000", "1609113600000000", "NULL", "1640563200000000", "1588550400000000", "1609113600000000"}},
	{"date_trunc('day', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('hour', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('minute', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('second', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('millisecond', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('microsecond', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('YEAR', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1577836800000000", "1609459200000000"}},
	{"date_trunc('Month', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588291200000000", "1609459200000000"}},
	{"datetrunc('day', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_trunc('nanosecond', ts)", "ERR", nil}, // External error: Query Execution error: Execution error: Unsupported date_trunc granularity: 'nanosecond'. Supported valu
	{"date_trunc('years', ts)", "ERR", nil},      // External error: Query Execution error: Execution error: Unsupported date_trunc granularity: 'years'. Supported values ar
	{"date_trunc('foo', ts)", "ERR", nil},        // External error: Query Execution error: Execution error: Unsupported date_trunc granularity: 'foo'. Supported values are:
	{"date_trunc(' day', ts)", "ERR", nil},       // External error: Query Execution error: Execution error: Unsupported date_trunc granularity: ' day'. Supported values are
	{"date_trunc(NULL, ts)", "ERR", nil},         // External error: Query Execution error: Execution error: Granularity of `date_trunc` must be non-null scalar Utf8
	{"date_trunc(s, ts)", "ERR", nil},            // External error: Query Execution error: Execution error: Granularity of `date_trunc` must be non-null scalar Utf8
	{"date_trunc('day', NULL)", "timestamp[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_trunc('day', d)", "timestamp[ns]", []string{"1609459200000000000", "1622505600000000000", "1640995200000000000", "NULL", "1577836800000000000", "1609545600000000000"}},
	{"date_trunc('month', d)", "timestamp[ns]", []string{"1609459200000000000", "1622505600000000000", "1640995200000000000", "NULL", "1577836800000000000", "1609459200000000000"}},
	{"date_trunc('week', d)", "timestamp[ns]", []string{"1609113600000000000", "1622419200000000000", "1640563200000000000", "NULL", "1577664000000000000", "1609113600000000000"}},
	{"date_trunc('quarter', d)", "timestamp[ns]", []string{"1609459200000000000", "1617235200000000000", "1640995200000000000", "NULL", "1577836800000000000", "1609459200000000000"}},
	{"date_trunc('day', '2021-03-04 05:06:07')", "timestamp[ns]", []string{"1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000"}},
	{"date_trunc('hour', '2021-03-04T05:06:07.891')", "timestamp[ns]", []string{"1614834000000000000", "1614834000000000000", "1614834000000000000", "1614834000000000000", "1614834000000000000", "1614834000000000000"}},
	{"date_trunc('day', i64)", "ERR", nil}, // LanceError(IO): Internal error: Function 'date_trunc' failed to match any signature, errors: Error during planning: Func
	{"date_trunc('day', to_timestamp_seconds(ts))", "timestamp[s]", []string{"1609459200", "1609459200", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"date_trunc('millisecond', to_timestamp_seconds(ts))", "timestamp[s]", []string{"1609459200", "1609502400", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"date_trunc('day', to_timestamp_millis(ts))", "timestamp[ms]", []string{"1609459200000", "1609459200000", "NULL", "1640995200000", "1588636800000", "1609459200000"}},
	{"date_trunc('second', to_timestamp_micros(-1500000))", "timestamp[us]", []string{"-2000000", "-2000000", "-2000000", "-2000000", "-2000000", "-2000000"}},
	{"date_trunc('day', to_timestamp_micros(-1))", "timestamp[us]", []string{"-86400000000", "-86400000000", "-86400000000", "-86400000000", "-86400000000", "-86400000000"}},
	{"date_trunc('week', to_timestamp('1970-01-01'))", "timestamp[ns]", []string{"-259200000000000", "-259200000000000", "-259200000000000", "-259200000000000", "-259200000000000", "-259200000000000"}},
	{"date_trunc('month', to_timestamp('1969-12-31 23:59:59.999999999'))", "timestamp[ns]", []string{"-2678400000000000", "-2678400000000000", "-2678400000000000", "-2678400000000000", "-2678400000000000", "-2678400000000000"}},
	{"date_trunc('quarter', to_timestamp('2021-11-30 10:00:00'))", "timestamp[ns]", []string{"1633046400000000000", "1633046400000000000", "1633046400000000000", "1633046400000000000", "1633046400000000000", "1633046400000000000"}},
	{"date_trunc('millisecond', to_timestamp('2021-11-30 10:00:00.123456789'))", "timestamp[ns]", []string{"1638266400123000000", "1638266400123000000", "1638266400123000000", "1638266400123000000", "1638266400123000000", "1638266400123000000"}},
	{"date_trunc('microsecond', to_timestamp('2021-11-30 10:00:00.123456789'))", "timestamp[ns]", []string{"1638266400123456000", "1638266400123456000", "1638266400123456000", "1638266400123456000", "1638266400123456000", "1638266400123456000"}},
	{"date_trunc('day', to_timestamp_seconds(9223372036854775807))", "ERR", nil},   // External error: Query Execution error: Execution error: Timestamp 9223372036854775807 out of range
	{"date_trunc('year', to_timestamp_micros(-9223372036854775807))", "ERR", nil},  // External error: Query Execution error: Execution error: Timestamp -9223372036854775807 out of range
	{"date_trunc('year', to_timestamp_seconds(-62167219200 - 86400))", "ERR", nil}, // External error: Query Execution error: Execution error: Timestamp -62167305600 out of range
	{"date_trunc('day', arrow_cast(200000, 'Date32'))", "ERR", nil},                // Query Execution error: Execution error: Cannot cast Date32 value 200000 to Timestamp(ns): converted value exceeds the re
	{"date_trunc('day', from_unixtime(i64 * 10000, '+05:00'))", "timestamp[s, tz=+05:00]", []string{"68400", "154800", "241200", "327600", "414000", "586800"}},
	{"date_trunc('hour', from_unixtime(i64 * 100, '+05:30'))", "timestamp[s, tz=+05:30]", []string{"-1800", "1800", "1800", "1800", "1800", "5400"}},
	{"date_trunc('day', from_unixtime(i64 * 1000, 'America/New_York'))", "timestamp[s, tz=America/New_York]", []string{"-68400", "18000", "18000", "18000", "18000", "18000"}},
	{"date_trunc('month', from_unixtime(i64 * 1000, 'America/New_York'))", "timestamp[s, tz=America/New_York]", []string{"-2660400", "18000", "18000", "18000", "18000", "18000"}},
	{"date_trunc('day', from_unixtime(i64, 'UTC'))", "timestamp[s, tz=UTC]", []string{"0", "0", "0", "0", "0", "0"}},
	{"date_part('year', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('quarter', ts)", "int32", []string{"1", "1", "NULL", "1", "2", "1"}},
	{"date_part('month', ts)", "int32", []string{"1", "1", "NULL", "1", "5", "1"}},
	{"date_part('week', ts)", "int32", []string{"53", "53", "NULL", "52", "19", "53"}},
	{"date_part('day', ts)", "int32", []string{"1", "1", "NULL", "1", "5", "1"}},
	{"date_part('doy', ts)", "int32", []string{"1", "1", "NULL", "1", "126", "1"}},
	{"date_part('dow', ts)", "int32", []string{"5", "5", "NULL", "6", "2", "5"}},
	{"date_part('isodow', ts)", "int32", []string{"5", "5", "NULL", "6", "2", "5"}},
	{"date_part('hour', ts)", "int32", []string{"0", "12", "NULL", "0", "0", "0"}},
	{"date_part('minute', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('second', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('millisecond', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('microsecond', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('nanosecond', ts)", "int64", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('epoch', ts)", "float64", []string{"1609459200.0", "1609502400.0", "NULL", "1640995200.0", "1588636800.0", "1609459200.0"}},
	{"date_part('isoyear', ts)", "int32", []string{"2020", "2020", "NULL", "2021", "2020", "2020"}},
	{"date_part('decade', ts)", "ERR", nil},  // External error: Query Execution error: Execution error: Date part 'decade' not supported
	{"date_part('century', ts)", "ERR", nil}, // External error: Query Execution error: Execution error: Date part 'century' not supported
	{"date_part('ns', ts)", "ERR", nil},      // External error: Query Execution error: Execution error: Date part 'ns' not supported
	{"date_part('years', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('y', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('yr', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('yrs', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('YEAR', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('mon', ts)", "int32", []string{"1", "1", "NULL", "1", "5", "1"}},
	{"date_part('mons', ts)", "int32", []string{"1", "1", "NULL", "1", "5", "1"}},
	{"date_part('w', ts)", "int32", []string{"53", "53", "NULL", "52", "19", "53"}},
	{"date_part('d', ts)", "int32", []string{"1", "1", "NULL", "1", "5", "1"}},
	{"date_part('h', ts)", "int32", []string{"0", "12", "NULL", "0", "0", "0"}},
	{"date_part('hr', ts)", "int32", []string{"0", "12", "NULL", "0", "0", "0"}},
	{"date_part('hrs', ts)", "int32", []string{"0", "12", "NULL", "0", "0", "0"}},
	{"date_part('m', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('min', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('mins', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('s', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('sec', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('secs', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('ms', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('msec', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('msecs', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('mseconds', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('us', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('usec', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('useconds', ts)", "int32", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('NANOSECONDS', ts)", "int64", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"date_part('qtr', ts)", "int32", []string{"1", "1", "NULL", "1", "2", "1"}},
	{"date_part('QTR', ts)", "int32", []string{"1", "1", "NULL", "1", "2", "1"}},
	{"date_part('Epoch', ts)", "float64", []string{"1609459200.0", "1609502400.0", "NULL", "1640995200.0", "1588636800.0", "1609459200.0"}},
	{"date_part('\"year\"', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('''year''', ts)", "int32", []string{"2021", "2021", "NULL", "2022", "2020", "2021"}},
	{"date_part('foo', ts)", "ERR", nil},    // External error: Query Execution error: Execution error: Date part 'foo' not supported
	{"date_part(NULL, ts)", "ERR", nil},     // Query Execution error: Execution error: date_part requires non-empty constant string
	{"date_part('', ts)", "ERR", nil},       // Query Execution error: Execution error: date_part requires non-empty constant string
	{"date_part(s, ts)", "ERR", nil},        // Query Execution error: Execution error: date_part requires non-empty constant string
	{"date_part('year', NULL)", "ERR", nil}, // External error: LanceError(Arrow): Compute error: Year does not support: Null
	{"date_part('year', d)", "int32", []string{"2021", "2021", "2022", "NULL", "2020", "2021"}},
	{"date_part('week', d)", "int32", []string{"53", "22", "52", "NULL", "1", "53"}},
	{"date_part('doy', d)", "int32", []string{"1", "152", "1", "NULL", "1", "2"}},
	{"date_part('dow', d)", "int32", []string{"5", "2", "6", "NULL", "3", "6"}},
	{"date_part('isodow', d)", "int32", []string{"5", "2", "6", "NULL", "3", "6"}},
	{"date_part('hour', d)", "int32", []string{"0", "0", "0", "NULL", "0", "0"}},
	{"date_part('second', d)", "int32", []string{"0", "0", "0", "NULL", "0", "0"}},
	{"date_part('epoch', d)", "float64", []string{"1609459200.0", "1622505600.0", "1640995200.0", "NULL", "1577836800.0", "1609545600.0"}},
	{"date_part('nanosecond', d)", "int64", []string{"0", "0", "0", "NULL", "0", "0"}},
	{"date_part('year', '2021-03-04')", "int32", []string{"2021", "2021", "2021", "2021", "2021", "2021"}},
	{"date_part('year', i64)", "ERR", nil}, // LanceError(IO): Internal error: Function 'date_part' failed to match any signature, errors: Error during planning: Funct
	{"datepart('day', d)", "int32", []string{"1", "1", "1", "NULL", "1", "2"}},
	{"date_part('second', to_timestamp('2021-01-01 00:00:01.5'))", "int32", []string{"1", "1", "1", "1", "1", "1"}},
	{"date_part('millisecond', to_timestamp('2021-01-01 00:00:01.5'))", "int32", []string{"1500", "1500", "1500", "1500", "1500", "1500"}},
	{"date_part('microsecond', to_timestamp('2021-01-01 00:00:01.5'))", "int32", []string{"1500000", "1500000", "1500000", "1500000", "1500000", "1500000"}},
	{"date_part('nanosecond', to_timestamp('2021-01-01 00:00:01.5'))", "int64", []string{"1500000000", "1500000000", "1500000000", "1500000000", "1500000000", "1500000000"}},
	{"date_part('epoch', to_timestamp('2021-01-01 00:00:01.5'))", "float64", []string{"1609459201.5", "1609459201.5", "1609459201.5", "1609459201.5", "1609459201.5", "1609459201.5"}},
	{"date_part('epoch', to_timestamp('1960-01-01 00:00:01.5'))", "float64", []string{"-315619198.5", "-315619198.5", "-315619198.5", "-315619198.5", "-315619198.5", "-315619198.5"}},
	{"date_part('second', to_timestamp_micros(-1))", "int32", []string{"59", "59", "59", "59", "59", "59"}},
	{"date_part('millisecond', to_timestamp_micros(-1))", "int32", []string{"59999", "59999", "59999", "59999", "59999", "59999"}},
	{"date_part('microsecond', to_timestamp_micros(-1))", "int32", []string{"59999999", "59999999", "59999999", "59999999", "59999999", "59999999"}},
	{"date_part('nanosecond', to_timestamp_micros(-1))", "int64", []string{"59999999000", "59999999000", "59999999000", "59999999000", "59999999000", "59999999000"}},
	{"date_part('year', to_timestamp_micros(-1))", "int32", []string{"1969", "1969", "1969", "1969", "1969", "1969"}},
	{"date_part('epoch', to_timestamp_nanos(-1))", "float64", []string{"-1e-09", "-1e-09", "-1e-09", "-1e-09", "-1e-09", "-1e-09"}},
	{"date_part('epoch', to_timestamp_nanos(1609459201123456789))", "float64", []string{"1609459201.1234567", "1609459201.1234567", "1609459201.1234567", "1609459201.1234567", "1609459201.1234567", "1609459201.1234567"}},
	{"date_part('epoch', to_timestamp_nanos(1234567890123456789))", "float64", []string{"1234567890.1234567", "1234567890.1234567", "1234567890.1234567", "1234567890.1234567", "1234567890.1234567", "1234567890.1234567"}},
	{"date_part('epoch', to_timestamp_nanos(987654321987654321))", "float64", []string{"987654321.9876543", "987654321.9876543", "987654321.9876543", "987654321.9876543", "987654321.9876543", "987654321.9876543"}},
	{"date_part('epoch', to_timestamp_micros(1234567890123457))", "float64", []string{"1234567890.123457", "1234567890.123457", "1234567890.123457", "1234567890.123457", "1234567890.123457", "1234567890.123457"}},
	{"date_part('epoch', to_timestamp_millis(-1234567890123))", "float64", []string{"-1234567890.123", "-1234567890.123", "-1234567890.123", "-1234567890.123", "-1234567890.123", "-1234567890.123"}},
	{"date_part('millisecond', to_timestamp_nanos(1609459201123456789))", "int32", []string{"1123", "1123", "1123", "1123", "1123", "1123"}},
	{"date_part('epoch', to_timestamp_seconds(9223372036854775807))", "float64", []string{"9.223372036854776e+18", "9.223372036854776e+18", "9.223372036854776e+18", "9.223372036854776e+18", "9.223372036854776e+18", "9.223372036854776e+18"}},
	{"date_part('year', to_timestamp_seconds(9223372036854775807))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('year', to_timestamp_micros(9223372036854775807))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('year', to_timestamp_micros(-9223372036854775807))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('nanosecond', to_timestamp_seconds(2000000000))", "int64", []string{"20000000000", "20000000000", "20000000000", "20000000000", "20000000000", "20000000000"}},
	{"date_part('year', arrow_cast(2147483647, 'Date32'))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('epoch', arrow_cast(2147483647, 'Date32'))", "float64", []string{"185542587100800.0", "185542587100800.0", "185542587100800.0", "185542587100800.0", "185542587100800.0", "185542587100800.0"}},
	{"date_part('year', arrow_cast(95026236, 'Date32'))", "int32", []string{"262142", "262142", "262142", "262142", "262142", "262142"}},
	{"date_part('year', arrow_cast(95026237, 'Date32'))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('year', arrow_cast(-96465292, 'Date32'))", "int32", []string{"-262143", "-262143", "-262143", "-262143", "-262143", "-262143"}},
	{"date_part('year', arrow_cast(-96465293, 'Date32'))", "int32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_part('week', to_timestamp('2021-01-03'))", "int32", []string{"53", "53", "53", "53", "53", "53"}},
	{"date_part('week', to_timestamp('2024-12-30'))", "int32", []string{"1", "1", "1", "1", "1", "1"}},
	{"date_part('isoyear', to_timestamp('2024-12-30'))", "int32", []string{"2025", "2025", "2025", "2025", "2025", "2025"}},
	{"date_part('isodow', to_timestamp('2021-01-03'))", "int32", []string{"7", "7", "7", "7", "7", "7"}},
	{"date_part('doy', to_timestamp('2020-12-31'))", "int32", []string{"366", "366", "366", "366", "366", "366"}},
	{"date_part('year', from_unixtime(i64 * 1000, 'America/New_York'))", "int32", []string{"1969", "1970", "1970", "1970", "1970", "1970"}},
	{"date_part('hour', from_unixtime(i64 * 1000, 'America/New_York'))", "int32", []string{"21", "0", "3", "6", "8", "11"}},
	{"date_part('epoch', from_unixtime(i64 * 1000, 'America/New_York'))", "float64", []string{"10000.0", "20000.0", "30000.0", "40000.0", "50000.0", "60000.0"}},
	{"date_part('hour', from_unixtime(i64, '+05:00'))", "int32", []string{"5", "5", "5", "5", "5", "5"}},
	{"date_part('hour', make_time(1,2,3))", "int32", []string{"1", "1", "1", "1", "1", "1"}},
	{"date_part('year', make_time(1,2,3))", "ERR", nil}, // External error: LanceError(Arrow): Compute error: Year does not support: Time32(s)
	{"date_part('epoch', make_time(1,2,3))", "float64", []string{"3723.0", "3723.0", "3723.0", "3723.0", "3723.0", "3723.0"}},
	{"date_part('second', to_time('01:02:03.5'))", "int32", []string{"3", "3", "3", "3", "3", "3"}},
	{"date_bin(interval '1 day', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_bin(interval '1 hour', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_bin(interval '7 days', ts)", "timestamp[us]", []string{"1609372800000000", "1609372800000000", "NULL", "1640822400000000", "1588204800000000", "1609372800000000"}},
	{"date_bin(interval '1 week', ts)", "timestamp[us]", []string{"1609372800000000", "1609372800000000", "NULL", "1640822400000000", "1588204800000000", "1609372800000000"}},
	{"date_bin(interval '1 month', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588291200000000", "1609459200000000"}},
	{"date_bin(interval '2 months', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588291200000000", "1609459200000000"}},
	{"date_bin(interval '1 year', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1577836800000000", "1609459200000000"}},
	{"date_bin(interval '1 month 1 day', ts)", "ERR", nil}, // External error: Not supported: This feature is not implemented: DATE_BIN stride does not support combination of month, d
	{"date_bin(interval '1 day 1 hour', ts)", "timestamp[us]", []string{"1609380000000000", "1609470000000000", "NULL", "1640970000000000", "1588590000000000", "1609380000000000"}},
	{"date_bin(interval '0 day', ts)", "ERR", nil}, // External error: Query Execution error: Execution error: DATE_BIN stride must be non-zero
	{"date_bin(interval '-1 day', ts)", "timestamp[us]", []string{"1609459200000000", "1609459200000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_bin(interval '-1 day', to_timestamp('1969-12-31 10:00'))", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '1969-12-31 10:00': error parsing time
	{"date_bin(interval '-1 day', to_timestamp('1969-12-31T10:00:00'))", "timestamp[ns]", []string{"0", "0", "0", "0", "0", "0"}},
	{"date_bin(interval '1 day', ts, timestamp '2021-01-01 06:00:00')", "timestamp[us]", []string{"1609394400000000", "1609480800000000", "NULL", "1640930400000000", "1588572000000000", "1609394400000000"}},
	{"date_bin(interval '1 day', ts, timestamp(6) '2021-01-01 06:00:00')", "timestamp[ns]", []string{"1609394400000000000", "1609480800000000000", "NULL", "1640930400000000000", "1588572000000000000", "1609394400000000000"}},
	{"date_bin(interval '1 day', ts, '2021-01-01 06:00:00')", "timestamp[ns]", []string{"1609394400000000000", "1609480800000000000", "NULL", "1640930400000000000", "1588572000000000000", "1609394400000000000"}},
	{"date_bin(interval '1 day', ts, ts)", "ERR", nil}, // External error: Not supported: This feature is not implemented: DATE_BIN only supports literal values for the origin arg
	{"date_bin(interval '1 day', ts, to_timestamp('2021-01-01T06:00:00'))", "timestamp[us]", []string{"1609394400000000", "1609480800000000", "NULL", "1640930400000000", "1588572000000000", "1609394400000000"}},
	{"date_bin(interval '1 day', ts, NULL)", "ERR", nil}, // External error: Query Execution error: Execution error: DATE_BIN expects origin argument to be a TIMESTAMP with nanoseco
	{"date_bin(interval '1 day', NULL)", "timestamp[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_bin(NULL, ts)", "timestamp[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_bin(interval '1 day', d)", "timestamp[ns]", []string{"1609459200000000000", "1622505600000000000", "1640995200000000000", "NULL", "1577836800000000000", "1609545600000000000"}},
	{"date_bin(interval '1 day', '2021-03-04 05:06:07')", "timestamp[ns]", []string{"1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000", "1614816000000000000"}},
	{"date_bin(interval '1 day', i64)", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'date_bin' function: coercion
	{"date_bin(interval '15 minutes', to_timestamp('2021-01-01T00:07:30'))", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"date_bin(interval '15 minutes', to_timestamp('1969-12-31T23:52:30'))", "timestamp[ns]", []string{"-900000000000", "-900000000000", "-900000000000", "-900000000000", "-900000000000", "-900000000000"}},
	{"date_bin(interval '1 second', to_timestamp_seconds(ts))", "timestamp[s]", []string{"1609459200", "1609502400", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"date_bin(interval '1 nanosecond', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_bin(interval '1500 nanoseconds', ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"date_bin(interval '1 day', to_timestamp_millis(ts))", "timestamp[ms]", []string{"1609459200000", "1609459200000", "NULL", "1640995200000", "1588636800000", "1609459200000"}},
	{"date_bin(interval '1 month', to_timestamp('2021-03-30'), to_timestamp('2021-01-31'))", "timestamp[ns]", []string{"1614470400000000000", "1614470400000000000", "1614470400000000000", "1614470400000000000", "1614470400000000000", "1614470400000000000"}},
	{"date_bin(interval '1 month', to_timestamp('2021-01-31T10:00:00'), to_timestamp('2020-12-15'))", "timestamp[ns]", []string{"1610668800000000000", "1610668800000000000", "1610668800000000000", "1610668800000000000", "1610668800000000000", "1610668800000000000"}},
	{"date_bin(interval '1 month', to_timestamp('2021-01-10T10:00:00'), to_timestamp('2020-12-15'))", "timestamp[ns]", []string{"1607990400000000000", "1607990400000000000", "1607990400000000000", "1607990400000000000", "1607990400000000000", "1607990400000000000"}},
	{"date_bin(interval '1 month', to_timestamp('1969-01-10T10:00:00'))", "timestamp[ns]", []string{"-31536000000000000", "-31536000000000000", "-31536000000000000", "-31536000000000000", "-31536000000000000", "-31536000000000000"}},
	{"date_bin(interval '3 months', to_timestamp('2021-05-10T10:00:00'), to_timestamp('2021-01-31'))", "timestamp[ns]", []string{"1619740800000000000", "1619740800000000000", "1619740800000000000", "1619740800000000000", "1619740800000000000", "1619740800000000000"}},
	{"date_bin(interval '-2 months', to_timestamp('2021-05-10T10:00:00'))", "timestamp[ns]", []string{"1619827200000000000", "1619827200000000000", "1619827200000000000", "1619827200000000000", "1619827200000000000", "1619827200000000000"}},
	{"date_bin(interval '-2 months', to_timestamp('1969-05-10T10:00:00'))", "timestamp[ns]", []string{"-21168000000000000", "-21168000000000000", "-21168000000000000", "-21168000000000000", "-21168000000000000", "-21168000000000000"}},
	{"date_bin(interval '1 day', from_unixtime(i64 * 10000, '+05:00'))", "timestamp[ns, tz=+05:00]", []string{"86400000000000", "172800000000000", "259200000000000", "345600000000000", "432000000000000", "518400000000000"}},
	{"date_bin(interval '1 day', to_timestamp_nanos(9223372036854775807))", "timestamp[ns]", []string{"9223286400000000000", "9223286400000000000", "9223286400000000000", "9223286400000000000", "9223286400000000000", "9223286400000000000"}},
	{"date_bin(interval '1 day', to_timestamp_nanos(-9223372036854775807))", "timestamp[ns]", []string{"9223371273709551616", "9223371273709551616", "9223371273709551616", "9223371273709551616", "9223371273709551616", "9223371273709551616"}},
	{"date_bin(interval '1 day', to_timestamp_micros(-9223372036854775807))", "timestamp[us]", []string{"0", "0", "0", "0", "0", "0"}},
	{"date_bin(interval '1 day', ts, to_timestamp_micros(-9223372036854775807))", "ERR", nil}, // LanceError(Arrow): Arithmetic overflow: Overflow happened on: -9223372036854775807 * 1000
	{"date_bin(interval '1 day', ts, to_timestamp_seconds(0))", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "NULL", "1640995200000000000", "1588636800000000000", "1609459200000000000"}},
	{"date_bin(interval '1 day', to_timestamp_seconds(ts), to_timestamp_micros(10))", "timestamp[ns]", []string{"1609372800000010000", "1609459200000010000", "NULL", "1640908800000010000", "1588550400000010000", "1609372800000010000"}},
	{"date_bin(interval '1 day', ts, date '2021-01-01')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "NULL", "1640995200000000000", "1588636800000000000", "1609459200000000000"}},
	{"date_bin(5, ts)", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'date_bin' function: coercion
	{"date_bin(interval '1 day', ts, timestamp '2021-01-01 06:00:00', 1)", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'date_bin' function: coercion
	{"make_date(2021, 1, 1)", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"make_date(i + 2020, 1, 1)", "date32", []string{"18628", "18993", "19358", "19723", "20089", "NULL"}},
	{"make_date(2021, i, 1)", "date32", []string{"18628", "18659", "18687", "18718", "18748", "NULL"}},
	{"make_date(2021, 1, i)", "date32", []string{"18628", "18629", "18630", "18631", "18632", "NULL"}},
	{"make_date(2021, 2, 29)", "ERR", nil}, // External error: Query Execution error: Execution error: Unable to parse date from 2021, 2, 29
	{"make_date(2020, 2, 29)", "date32", []string{"18321", "18321", "18321", "18321", "18321", "18321"}},
	{"make_date(2021, 13, 1)", "ERR", nil}, // External error: Query Execution error: Execution error: Month value '13' is out of range
	{"make_date(2021, 0, 1)", "ERR", nil},  // External error: Query Execution error: Execution error: Month value '0' is out of range
	{"make_date(2021, 1, 0)", "ERR", nil},  // External error: Query Execution error: Execution error: Day value '0' is out of range
	{"make_date(2021, 1, 32)", "ERR", nil}, // External error: Query Execution error: Execution error: Day value '32' is out of range
	{"make_date(2021, -1, 1)", "ERR", nil}, // External error: Query Execution error: Execution error: Month value '-1' is out of range
	{"make_date(-1, 1, 1)", "date32", []string{"-719893", "-719893", "-719893", "-719893", "-719893", "-719893"}},
	{"make_date(0, 1, 1)", "date32", []string{"-719528", "-719528", "-719528", "-719528", "-719528", "-719528"}},
	{"make_date(262142, 12, 31)", "date32", []string{"95026236", "95026236", "95026236", "95026236", "95026236", "95026236"}},
	{"make_date(262143, 1, 1)", "ERR", nil}, // External error: Query Execution error: Execution error: Unable to parse date from 262143, 1, 1
	{"make_date(-262143, 1, 1)", "date32", []string{"-96465292", "-96465292", "-96465292", "-96465292", "-96465292", "-96465292"}},
	{"make_date(-262144, 1, 1)", "ERR", nil},    // External error: Query Execution error: Execution error: Unable to parse date from -262144, 1, 1
	{"make_date(3000000000, 1, 1)", "ERR", nil}, // LanceError(Arrow): Cast error: Can't cast value 3000000000 to type Int32
	{"make_date('2021', '1', '1')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"make_date('x', '1', '1')", "ERR", nil}, // LanceError(Arrow): Cast error: Cannot cast string 'x' to value of Int32 type
	{"make_date('+2021', '1', '1')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"make_date(' 2021', '1', '1')", "ERR", nil}, // LanceError(Arrow): Cast error: Cannot cast string ' 2021' to value of Int32 type
	{"make_date(2021.0, 1, 1)", "ERR", nil},      // Invalid user input: Error during planning: Function 'make_date' requires Int32, but received Float64 (DataType: Float64)
	{"make_date(f, 1, 1)", "ERR", nil},           // Invalid user input: Error during planning: Function 'make_date' requires Int32, but received Float64 (DataType: Float64)
	{"make_date(NULL, 1, 1)", "date32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"make_date(2021, NULL, 1)", "date32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"make_date(2021, 1)", "ERR", nil}, // Invalid user input: Error during planning: Function 'make_date' expects 3 arguments but received 2
	{"make_date(i64, 1, 1)", "date32", []string{"-715875", "-712223", "-708570", "-704918", "-701265", "-697613"}},
	{"make_date(u, 1, 1)", "ERR", nil},    // External error: LanceError(Arrow): Cast error: Can't cast value 9223372036854775808 to type Int32
	{"make_date(dec, 1, 1)", "ERR", nil},  // Invalid user input: Error during planning: Function 'make_date' requires Int32, but received Decimal(8, 3) (DataType: De
	{"make_date(true, 1, 1)", "ERR", nil}, // Invalid user input: Error during planning: Function 'make_date' requires Int32, but received Boolean (DataType: Boolean)
	{"make_date(arrow_cast(2021, 'UInt16'), 1, 1)", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"make_date(s, 1, 1)", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Cannot cast string 'apple' to value of Int32 type
	{"to_timestamp('2021-01-01T00:00:00')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 00:00:00.123456')", "timestamp[ns]", []string{"1609459200123456000", "1609459200123456000", "1609459200123456000", "1609459200123456000", "1609459200123456000", "1609459200123456000"}},
	{"to_timestamp('2021-01-01 00:00:00.1234567891')", "timestamp[ns]", []string{"1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789"}},
	{"to_timestamp('2021-01-01 00:00:00.123456789123456789123456789')", "timestamp[ns]", []string{"1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789"}},
	{"to_timestamp('2021-01-01 00:00:00.123456789123456789123456789Z')", "timestamp[ns]", []string{"1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789"}},
	{"to_timestamp('2021-01-01 00:00:00.1234567891Z')", "timestamp[ns]", []string{"1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789", "1609459200123456789"}},
	{"to_timestamp('2021-01-01t00:00:00')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 00:00:00Z')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 00:00:00z')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 00:00:00ZZ')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Invalid timezone "ZZ": failed to parse timezone
	{"to_timestamp('2021-01-01 00:00:00+01:00')", "timestamp[ns]", []string{"1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000"}},
	{"to_timestamp('2021-01-01 00:00:00 +01:00')", "timestamp[ns]", []string{"1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000"}},
	{"to_timestamp('2021-01-01 00:00:00-0130')", "timestamp[ns]", []string{"1609464600000000000", "1609464600000000000", "1609464600000000000", "1609464600000000000", "1609464600000000000", "1609464600000000000"}},
	{"to_timestamp('2021-01-01 00:00:00+01')", "timestamp[ns]", []string{"1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000", "1609455600000000000"}},
	{"to_timestamp('2021-01-01 00:00:00+1')", "ERR", nil},     // External error: LanceError(Arrow): Parser error: Invalid timezone "+1": failed to parse timezone
	{"to_timestamp('2021-01-01 00:00:00+24:00')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Invalid timezone "+24:00": failed to parse timezone
	{"to_timestamp('2021-01-01 00:00:00 America/New_York')", "timestamp[ns]", []string{"1609477200000000000", "1609477200000000000", "1609477200000000000", "1609477200000000000", "1609477200000000000", "1609477200000000000"}},
	{"to_timestamp('2021-07-01 00:00:00 America/New_York')", "timestamp[ns]", []string{"1625112000000000000", "1625112000000000000", "1625112000000000000", "1625112000000000000", "1625112000000000000", "1625112000000000000"}},
	{"to_timestamp('2021-01-01 00:00:00 UTC')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 00:00:00 utc')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Invalid timezone "utc": failed to parse timezone
	{"to_timestamp('2021-01-01 000000')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 000000+01:00')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01 000000+01:00': error parsing t
	{"to_timestamp('2021-01-01 00:00')", "ERR", nil},        // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01 00:00': error parsing time
	{"to_timestamp('2021-1-1')", "ERR", nil},                // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-1-1': timestamp must contain at leas
	{"to_timestamp('2021-01-01 ')", "ERR", nil},             // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01 ': error parsing time
	{"to_timestamp(' 2021-01-01')", "ERR", nil},             // External error: LanceError(Arrow): Parser error: Error parsing timestamp from ' 2021-01-01': error parsing date
	{"to_timestamp('20210101')", "ERR", nil},                // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '20210101': timestamp must contain at leas
	{"to_timestamp('2021-02-30')", "ERR", nil},              // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-02-30': error parsing date
	{"to_timestamp('2021-01-01 24:00:00')", "ERR", nil},     // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01 24:00:00': error parsing time
	{"to_timestamp('2021-01-01 23:59:60')", "timestamp[ns]", []string{"1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000"}},
	{"to_timestamp('2021-01-01 23:59:60.5')", "timestamp[ns]", []string{"1609545600500000000", "1609545600500000000", "1609545600500000000", "1609545600500000000", "1609545600500000000", "1609545600500000000"}},
	{"to_timestamp('2021-01-01 23:58:60')", "timestamp[ns]", []string{"1609545540000000000", "1609545540000000000", "1609545540000000000", "1609545540000000000", "1609545540000000000", "1609545540000000000"}},
	{"to_timestamp('2021-01-01 00:00:00.')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01 00:00:00.': error parsing time
	{"to_timestamp('2021-01-01 00:00:00x')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Invalid timezone "x": failed to parse timezone
	{"to_timestamp('2021-01-01X00:00:00')", "ERR", nil},  // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '2021-01-01X00:00:00': invalid timestamp s
	{"to_timestamp('1000-01-01')", "ERR", nil},           // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp('1677-09-21 00:12:44')", "timestamp[ns]", []string{"-9223372036000000000", "-9223372036000000000", "-9223372036000000000", "-9223372036000000000", "-9223372036000000000", "-9223372036000000000"}},
	{"to_timestamp('1677-09-21 00:12:43')", "ERR", nil}, // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp('2262-04-11 23:47:16.854775807')", "timestamp[ns]", []string{"9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807"}},
	{"to_timestamp('2262-04-11 23:47:16.854775808')", "ERR", nil}, // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp('')", "ERR", nil},                              // External error: LanceError(Arrow): Parser error: Error parsing timestamp from '': timestamp must contain at least 10 cha
	{"to_timestamp(NULL)", "timestamp[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_timestamp(s)", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Error parsing timestamp from 'apple': timestamp must contain at least 1
	{"to_timestamp('2021-01-01', '%Y-%m-%d')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('01/02/2021', '%m/%d/%Y')", "timestamp[ns]", []string{"1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000"}},
	{"to_timestamp('01/02/2021 10:11', '%m/%d/%Y %H:%M')", "timestamp[ns]", []string{"1609582260000000000", "1609582260000000000", "1609582260000000000", "1609582260000000000", "1609582260000000000", "1609582260000000000"}},
	{"to_timestamp('01/02/2021', '%Y-%m-%d', '%m/%d/%Y')", "timestamp[ns]", []string{"1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000"}},
	{"to_timestamp('01/02/2021', '%Y-%m-%d', '%d-%m')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '01/02/2021' using format '%d-%m':
	{"to_timestamp('01/02/2021 +0100', '%m/%d/%Y %z')", "timestamp[ns]", []string{"1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000", "1609545600000000000"}},
	{"to_timestamp('2021-01-01 10', '%Y-%m-%d %H')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 10:11:12.5', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[ns]", []string{"1609495872500000000", "1609495872500000000", "1609495872500000000", "1609495872500000000", "1609495872500000000", "1609495872500000000"}},
	{"to_timestamp('2021-01-01 10:11:12', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[ns]", []string{"1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000"}},
	{"to_timestamp('  2021-01-01', '%Y-%m-%d')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01  ', '%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01  ' using format '%Y-%m-
	{"to_timestamp('2021-01-01', '%Y-%m-%d ')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021 1 1', '%Y %m %d')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('20210101', '%Y%m%d')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('1609459200', '%s')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('-1609459200', '%s')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '-1609459200' using format '%s': in
	{"to_timestamp('Fri Jan  1 2021', '%a %b %e %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01', NULL)", "ERR", nil}, // External error: Query Execution error: Execution error: to_timestamp function unsupported data type at index 1: Null
	{"to_timestamp('2021-01-01', s)", "ERR", nil},    // External error: Query Execution error: Execution error: Unsupported data type Array(StringArray
	{"to_timestamp(s, '%Y')", "ERR", nil},            // External error: Query Execution error: Execution error: Error parsing timestamp from 'apple' using format '%Y': input co
	{"to_timestamp('2021-01-01', 5)", "ERR", nil},    // External error: Query Execution error: Execution error: to_timestamp function unsupported data type at index 1: Int64
	{"to_timestamp(1, '%Y')", "timestamp[ns]", []string{"1000000000", "1000000000", "1000000000", "1000000000", "1000000000", "1000000000"}},
	{"to_timestamp_seconds('2021-01-01 10:11:12.9', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[s]", []string{"1609495872", "1609495872", "1609495872", "1609495872", "1609495872", "1609495872"}},
	{"to_timestamp_millis('2021-01-01 10:11:12.9', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[ms]", []string{"1609495872900", "1609495872900", "1609495872900", "1609495872900", "1609495872900", "1609495872900"}},
	{"to_timestamp_micros('2021-01-01 10:11:12.987654321', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[us]", []string{"1609495872987654", "1609495872987654", "1609495872987654", "1609495872987654", "1609495872987654", "1609495872987654"}},
	{"to_timestamp_nanos('2021-01-01 10:11:12.987654321', '%Y-%m-%d %H:%M:%S%.f')", "timestamp[ns]", []string{"1609495872987654321", "1609495872987654321", "1609495872987654321", "1609495872987654321", "1609495872987654321", "1609495872987654321"}},
	{"to_timestamp('2021-01-01 1pm', '%Y-%m-%d %I%P')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 1:05pm', '%Y-%m-%d %I:%M%P')", "timestamp[ns]", []string{"1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000"}},
	{"to_timestamp('2021-01-01 1:05 PM', '%Y-%m-%d %l:%M %p')", "timestamp[ns]", []string{"1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000", "1609506300000000000"}},
	{"to_timestamp('2021-01-01 12:05 am', '%Y-%m-%d %I:%M %p')", "timestamp[ns]", []string{"1609459500000000000", "1609459500000000000", "1609459500000000000", "1609459500000000000", "1609459500000000000", "1609459500000000000"}},
	{"to_timestamp('2021-01-01 12:05 pm', '%Y-%m-%d %I:%M %p')", "timestamp[ns]", []string{"1609502700000000000", "1609502700000000000", "1609502700000000000", "1609502700000000000", "1609502700000000000", "1609502700000000000"}},
	{"to_timestamp('2021-01-01 01:02:03.5', '%Y-%m-%d %H:%M:%S%.3f')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03.5' using forma
	{"to_timestamp('2021-01-01 01:02:03.123', '%Y-%m-%d %H:%M:%S%.3f')", "timestamp[ns]", []string{"1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000"}},
	{"to_timestamp('2021-01-01 01:02:03.123456', '%Y-%m-%d %H:%M:%S%.6f')", "timestamp[ns]", []string{"1609462923123456000", "1609462923123456000", "1609462923123456000", "1609462923123456000", "1609462923123456000", "1609462923123456000"}},
	{"to_timestamp('2021-01-01 01:02:03.123456', '%Y-%m-%d %H:%M:%S%.3f')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03.123456' using
	{"to_timestamp('2021-01-01 01:02:03', '%Y-%m-%d %H:%M:%S%.3f')", "timestamp[ns]", []string{"1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000"}},
	{"to_timestamp('2021-01-01 01:02:03.123456', '%Y-%m-%d %H:%M:%S.%3f')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03.123456' using
	{"to_timestamp('2021-01-01 01:02:03.123', '%Y-%m-%d %H:%M:%S.%3f')", "timestamp[ns]", []string{"1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000", "1609462923123000000"}},
	{"to_timestamp('2021-01-01 01:02:03.123', '%Y-%m-%d %H:%M:%S.%f')", "timestamp[ns]", []string{"1609462923000000123", "1609462923000000123", "1609462923000000123", "1609462923000000123", "1609462923000000123", "1609462923000000123"}},
	{"to_timestamp('2021-01-01 01:02:03.1234567891', '%Y-%m-%d %H:%M:%S.%f')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03.1234567891' us
	{"to_timestamp('2021-01-01 01:02:03.123456789', '%Y-%m-%d %H:%M:%S.%9f')", "timestamp[ns]", []string{"1609462923123456789", "1609462923123456789", "1609462923123456789", "1609462923123456789", "1609462923123456789", "1609462923123456789"}},
	{"to_timestamp('2021-01-01 01:02:03', '%Y-%m-%d %T')", "timestamp[ns]", []string{"1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000"}},
	{"to_timestamp('2021-01-01T01:02:03+01:00', '%+')", "timestamp[ns]", []string{"1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000"}},
	{"to_timestamp('2021-01-01T01:02:03.5Z', '%+')", "timestamp[ns]", []string{"1609462923500000000", "1609462923500000000", "1609462923500000000", "1609462923500000000", "1609462923500000000", "1609462923500000000"}},
	{"to_timestamp('2021-01-01 01:02:03 UTC', '%+')", "timestamp[ns]", []string{"1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000"}},
	{"to_timestamp('2021-01-01 01:02:03', '%+')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03' using format
	{"to_timestamp('2021-01-01 01:02:03 +01:00', '%Y-%m-%d %H:%M:%S %z')", "timestamp[ns]", []string{"1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 +0100', '%Y-%m-%d %H:%M:%S %:z')", "timestamp[ns]", []string{"1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 +01 00', '%Y-%m-%d %H:%M:%S %z')", "timestamp[ns]", []string{"1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 Z', '%Y-%m-%d %H:%M:%S %z')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03 Z' using forma
	{"to_timestamp('2021-01-01 01:02:03 +01', '%Y-%m-%d %H:%M:%S %#z')", "timestamp[ns]", []string{"1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000", "1609459323000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 Z', '%Y-%m-%d %H:%M:%S %#z')", "timestamp[ns]", []string{"1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 +01', '%Y-%m-%d %H:%M:%S %z')", "ERR", nil},   // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03 +01' using for
	{"to_timestamp('2021-01-01 01:02:03 +0160', '%Y-%m-%d %H:%M:%S %z')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03 +0160' using f
	{"to_timestamp('2021-01-01 01:02:03 EST', '%Y-%m-%d %H:%M:%S %Z')", "timestamp[ns]", []string{"1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 America/New_York', '%Y-%m-%d %H:%M:%S %Z')", "timestamp[ns]", []string{"1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000", "1609480923000000000"}},
	{"to_timestamp('2021-01-01 01:02:03 Foo', '%Y-%m-%d %H:%M:%S %Z')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 01:02:03 Foo' using for
	{"to_timestamp('EST 2021-01-01 01:02:03', '%Z %Y-%m-%d %H:%M:%S')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from 'EST 2021-01-01 01:02:03' using for
	{"to_timestamp('1609459200 2021', '%s %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('1609459200 2020', '%s %Y')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '1609459200 2020' using format '%s
	{"to_timestamp('Friday January 01 2021', '%A %B %d %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('fri jan 01 2021', '%a %b %d %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('FRIDAY JANUARY 01 2021', '%A %B %d %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('Fri Jan 01 2021', '%A %B %d %Y')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 01:02:60', '%Y-%m-%d %H:%M:%S')", "timestamp[ns]", []string{"1609462980000000000", "1609462980000000000", "1609462980000000000", "1609462980000000000", "1609462980000000000", "1609462980000000000"}},
	{"to_timestamp('2021-1-1 1:2:3', '%Y-%m-%d %H:%M:%S')", "timestamp[ns]", []string{"1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000", "1609462923000000000"}},
	{"to_timestamp('12021-01-01', '%Y-%m-%d')", "ERR", nil},  // External error: Query Execution error: Execution error: Error parsing timestamp from '12021-01-01' using format '%Y-%m-%
	{"to_timestamp('+12021-01-01', '%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp('-2021-01-01', '%Y-%m-%d')", "ERR", nil},  // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp('2021-01-01%', '%Y-%m-%d%%')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01', '%Y-%m-%d%')", "ERR", nil},   // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01' using format '%Y-%m-%d
	{"to_timestamp('2021-01-01', '%Y-%m-%d %Q')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01' using format '%Y-%m-%d
	{"to_timestamp('x2021-01-01', '%Q%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from 'x2021-01-01' using format '%Q%Y-%m
	{"to_timestamp('2021-01-01', '')", "ERR", nil},            // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01' using format '': trail
	{"to_timestamp('', '')", "ERR", nil},                      // External error: Query Execution error: Execution error: Error parsing timestamp from '' using format '': input is not en
	{"to_timestamp('2021-01-01 10:00', '%Y-%m-%d %R')", "timestamp[ns]", []string{"1609495200000000000", "1609495200000000000", "1609495200000000000", "1609495200000000000", "1609495200000000000", "1609495200000000000"}},
	{"to_timestamp('2021-01-01', '%F')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('01/01/21', '%D')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('01/01/69', '%D')", "timestamp[ns]", []string{"3124224000000000000", "3124224000000000000", "3124224000000000000", "3124224000000000000", "3124224000000000000", "3124224000000000000"}},
	{"to_timestamp('01/01/70', '%D')", "timestamp[ns]", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_timestamp('2021-01-01 2021', '%Y-%m-%d %G')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 2021' using format '%Y-
	{"to_timestamp('2021-01-01 2020', '%Y-%m-%d %G')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021 1', '%Y %m')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021 1' using format '%Y %m': inpu
	{"to_timestamp('2021-01-01 20', '%Y-%m-%d %C')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 19', '%Y-%m-%d %C')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 19' using format '%Y-%m
	{"to_timestamp('20 21-01-01', '%C %y-%m-%d')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-100', '%Y-%j')", "timestamp[ns]", []string{"1618012800000000000", "1618012800000000000", "1618012800000000000", "1618012800000000000", "1618012800000000000", "1618012800000000000"}},
	{"to_timestamp('2021-366', '%Y-%j')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-366' using format '%Y-%j': in
	{"to_timestamp('2020-366', '%Y-%j')", "timestamp[ns]", []string{"1609372800000000000", "1609372800000000000", "1609372800000000000", "1609372800000000000", "1609372800000000000", "1609372800000000000"}},
	{"to_timestamp('2021 W01 1', '%G W%V %u')", "timestamp[ns]", []string{"1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000"}},
	{"to_timestamp('2020 W53 7', '%G W%V %u')", "timestamp[ns]", []string{"1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000"}},
	{"to_timestamp('2021 W53 1', '%G W%V %u')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021 W53 1' using format '%G W%V %
	{"to_timestamp('2021 00 5', '%Y %U %w')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021 01 0', '%Y %U %w')", "timestamp[ns]", []string{"1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000", "1609632000000000000"}},
	{"to_timestamp('2021 00 0', '%Y %U %w')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021 00 0' using format '%Y %U %w'
	{"to_timestamp('2021 01 1', '%Y %W %u')", "timestamp[ns]", []string{"1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000", "1609718400000000000"}},
	{"to_timestamp('2021 52 6', '%Y %W %u')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021 52 6' using format '%Y %W %u'
	{"to_timestamp('2021-01-01 q1', '%Y-%m-%d q%q')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 q2', '%Y-%m-%d q%q')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 q2' using format '%Y-%m
	{"to_timestamp('2021-01-01 Fri', '%Y-%m-%d %a')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 Sat', '%Y-%m-%d %a')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 Sat' using format '%Y-%
	{"to_timestamp('2021-01-01 5', '%Y-%m-%d %w')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 12:00:00 AM', '%Y-%m-%d %r')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('Fri Jan  1 10:11:12 2021', '%c')", "timestamp[ns]", []string{"1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000"}},
	{"to_timestamp(' 1-Jan-2021', '%v')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 10:11:12.123456', '%Y-%m-%d %H:%M:%S%.f %z')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 10:11:12.123456' using
	{"to_timestamp('2021-01-01 10:11:12 +05:00', '%Y-%m-%d %H:%M:%S %::z')", "timestamp[ns]", []string{"1609477872000000000", "1609477872000000000", "1609477872000000000", "1609477872000000000", "1609477872000000000", "1609477872000000000"}},
	{"to_timestamp('2021-01-01 10:11:12 +05', '%Y-%m-%d %H:%M:%S %:::z')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 10:11:12 +05' using for
	{"to_timestamp('2021-01-01 10:11:12 -05:00', '%Y-%m-%d %H:%M:%S %:z')", "timestamp[ns]", []string{"1609513872000000000", "1609513872000000000", "1609513872000000000", "1609513872000000000", "1609513872000000000", "1609513872000000000"}},
	{"to_timestamp('2021-01-01T10:11:12', '%Y-%m-%dT%H:%M:%S')", "timestamp[ns]", []string{"1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000"}},
	{"to_timestamp('2021-01-01T10:11:12', '%Y-%m-%d %H:%M:%S')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01T10:11:12' using format
	{"to_timestamp('2021-01-01 10:11:12', '%Y-%m-%d%t%H:%M:%S')", "timestamp[ns]", []string{"1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000", "1609495872000000000"}},
	{"to_timestamp('2021-01-01 10:11', '%Y-%m-%d %H:%M:%S')", "ERR", nil},       // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 10:11' using format '%Y
	{"to_timestamp('2021-01-01 10:11:12.5', '%Y-%m-%d %H:%M:%.f')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 10:11:12.5' using forma
	{"to_timestamp('2021-01-01 10', '%Y-%m-%d %S')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 10 .5', '%Y-%m-%d %S %.f')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 .5', '%Y-%m-%d %.f')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('2021-01-01 5', '%Y-%m-%d %f')", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000", "1609459200000000000"}},
	{"to_timestamp('1609459200 5', '%s %f')", "timestamp[ns]", []string{"1609459200000000005", "1609459200000000005", "1609459200000000005", "1609459200000000005", "1609459200000000005", "1609459200000000005"}},
	{"to_timestamp('99-1-1', '%y-%m-%d')", "timestamp[ns]", []string{"915148800000000000", "915148800000000000", "915148800000000000", "915148800000000000", "915148800000000000", "915148800000000000"}},
	{"to_timestamp('100-1-1', '%y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '100-1-1' using format '%y-%m-%d':
	{"to_timestamp('1500-01-01')", "ERR", nil},          // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp_seconds('2300-01-01')", "ERR", nil},  // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_timestamp_seconds('1969-12-31 23:59:59.5')", "timestamp[s]", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_timestamp_millis('1969-12-31 23:59:59.9995')", "timestamp[ms]", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_timestamp_micros('1969-12-31 23:59:59.9999995')", "timestamp[us]", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_timestamp(-1.5)", "timestamp[ns]", []string{"-1500000000", "-1500000000", "-1500000000", "-1500000000", "-1500000000", "-1500000000"}},
	{"to_timestamp(1e30)", "timestamp[ns]", []string{"9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807"}},
	{"to_timestamp(-1e30)", "timestamp[ns]", []string{"-9223372036854775808", "-9223372036854775808", "-9223372036854775808", "-9223372036854775808", "-9223372036854775808", "-9223372036854775808"}},
	{"to_timestamp(f)", "timestamp[ns]", []string{"500000000", "1500000000", "2500000000", "NULL", "4500000000", "0"}},
	{"to_timestamp(arrow_cast(1.5, 'Float32'))", "timestamp[ns]", []string{"1500000000", "1500000000", "1500000000", "1500000000", "1500000000", "1500000000"}},
	{"to_timestamp_seconds(1.5)", "timestamp[s]", []string{"1", "1", "1", "1", "1", "1"}},
	{"to_timestamp_seconds(-1.5)", "timestamp[s]", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_timestamp_millis(1.5)", "timestamp[ms]", []string{"1", "1", "1", "1", "1", "1"}},
	{"to_timestamp_micros(1.5)", "timestamp[us]", []string{"1", "1", "1", "1", "1", "1"}},
	{"to_timestamp_nanos(1.5)", "timestamp[ns]", []string{"1", "1", "1", "1", "1", "1"}},
	{"to_timestamp_seconds(1e30)", "ERR", nil},        // External error: LanceError(Arrow): Cast error: Can't cast value 1e30 to type Int64
	{"to_timestamp_seconds(f)", "ERR", nil},           // External error: LanceError(Arrow): Cast error: Can't cast value NaN to type Int64
	{"to_timestamp_nanos(d)", "ERR", nil},             // External error: Query Execution error: Execution error: Unsupported data type Date32 for function to_timestamp_nanos
	{"to_timestamp(d)", "ERR", nil},                   // External error: Query Execution error: Execution error: Unsupported data type Date32 for function to_timestamp
	{"to_timestamp(true)", "ERR", nil},                // External error: Query Execution error: Execution error: Unsupported data type Boolean for function to_timestamp
	{"to_timestamp(bin)", "ERR", nil},                 // External error: Query Execution error: Execution error: Unsupported data type Binary for function to_timestamp
	{"to_timestamp(9223372036854775807)", "ERR", nil}, // External error: LanceError(Arrow): Arithmetic overflow: Overflow happened on: 9223372036854775807 * 1000000000
	{"to_timestamp(9223372036)", "timestamp[ns]", []string{"9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000"}},
	{"to_timestamp(9223372037)", "ERR", nil},  // External error: LanceError(Arrow): Arithmetic overflow: Overflow happened on: 9223372037 * 1000000000
	{"to_timestamp(-9223372037)", "ERR", nil}, // External error: LanceError(Arrow): Arithmetic overflow: Overflow happened on: -9223372037 * 1000000000
	{"to_timestamp(i)", "timestamp[ns]", []string{"1000000000", "2000000000", "3000000000", "4000000000", "5000000000", "NULL"}},
	{"to_timestamp(i64)", "timestamp[ns]", []string{"10000000000", "20000000000", "30000000000", "40000000000", "50000000000", "60000000000"}},
	{"to_timestamp(u)", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Can't cast value 9223372036854775808 to type Int64
	{"to_timestamp(arrow_cast(5, 'UInt32'))", "timestamp[ns]", []string{"5000000000", "5000000000", "5000000000", "5000000000", "5000000000", "5000000000"}},
	{"to_timestamp(arrow_cast(5, 'Int8'))", "timestamp[ns]", []string{"5000000000", "5000000000", "5000000000", "5000000000", "5000000000", "5000000000"}},
	{"to_timestamp_millis(i)", "timestamp[ms]", []string{"1", "2", "3", "4", "5", "NULL"}},
	{"to_timestamp_seconds(i64)", "timestamp[s]", []string{"10", "20", "30", "40", "50", "60"}},
	{"to_timestamp_nanos(i64)", "timestamp[ns]", []string{"10", "20", "30", "40", "50", "60"}},
	{"to_timestamp(ts)", "timestamp[ns]", []string{"1609459200000000000", "1609502400000000000", "NULL", "1640995200000000000", "1588636800000000000", "1609459200000000000"}},
	{"to_timestamp_seconds(ts)", "timestamp[s]", []string{"1609459200", "1609502400", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"to_timestamp_millis(ts)", "timestamp[ms]", []string{"1609459200000", "1609502400000", "NULL", "1640995200000", "1588636800000", "1609459200000"}},
	{"to_timestamp_micros(ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"to_timestamp_nanos(ts)", "timestamp[ns]", []string{"1609459200000000000", "1609502400000000000", "NULL", "1640995200000000000", "1588636800000000000", "1609459200000000000"}},
	{"to_timestamp_seconds(to_timestamp_micros(-1500000))", "timestamp[s]", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_timestamp_millis(to_timestamp_micros(-1500))", "timestamp[ms]", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_timestamp_nanos(to_timestamp_seconds(9223372036))", "timestamp[ns]", []string{"9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000", "9223372036000000000"}},
	{"to_timestamp_nanos(to_timestamp_seconds(9223372037))", "ERR", nil}, // External error: LanceError(Arrow): Arithmetic overflow: Overflow happened on: 9223372037 * 1000000000
	{"to_timestamp(from_unixtime(i64, '+05:00'))", "timestamp[ns]", []string{"10000000000", "20000000000", "30000000000", "40000000000", "50000000000", "60000000000"}},
	{"to_timestamp(dec)", "timestamp[ns]", []string{"1000000000", "2500000000", "NULL", "3125000000", "1000000", "1000000000"}},
	{"to_timestamp(arrow_cast(1.5, 'Decimal128(5,1)'))", "timestamp[ns]", []string{"1500000000", "1500000000", "1500000000", "1500000000", "1500000000", "1500000000"}},
	{"to_timestamp(arrow_cast(-1.25, 'Decimal128(5,2)'))", "timestamp[ns]", []string{"-1250000000", "-1250000000", "-1250000000", "-1250000000", "-1250000000", "-1250000000"}},
	{"to_timestamp(arrow_cast(123456789012, 'Decimal128(38,0)'))", "timestamp[ns]", []string{"-5670419503966861312", "-5670419503966861312", "-5670419503966861312", "-5670419503966861312", "-5670419503966861312", "-5670419503966861312"}},
	{"to_timestamp(arrow_cast(1.5, 'Decimal128(20,12)'))", "timestamp[ns]", []string{"1500000000", "1500000000", "1500000000", "1500000000", "1500000000", "1500000000"}},
	{"to_timestamp_seconds(dec)", "timestamp[s]", []string{"1", "2", "NULL", "3", "0", "1"}},
	{"to_timestamp_millis(dec)", "timestamp[ms]", []string{"1", "2", "NULL", "3", "0", "1"}},
	{"to_timestamp_seconds(arrow_cast(-1.5, 'Decimal128(5,1)'))", "timestamp[s]", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_timestamp_seconds(arrow_cast(123456789012345678901, 'Decimal128(38,0)'))", "ERR", nil}, // External error: LanceError(Arrow): Cast error: value of 123456789012345683968 is out of range Int64
	{"to_date('2021-01-01')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-1-1')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-1')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-1-01')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-1x')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-1-1xx')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('20210101')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01T10:00:00')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01 10:00:00+05:00')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01 23:00:00-05:00')", "date32", []string{"18629", "18629", "18629", "18629", "18629", "18629"}},
	{"to_date('1969-12-31T10:00:00')", "date32", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_date('2021-01-01 23:59:60')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('+10000-01-01')", "date32", []string{"2932897", "2932897", "2932897", "2932897", "2932897", "2932897"}},
	{"to_date('-0001-01-01')", "date32", []string{"-719893", "-719893", "-719893", "-719893", "-719893", "-719893"}},
	{"to_date('+2021-01-01')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('+2021-1-1')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('+202-01-01')", "ERR", nil},   // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('+2021-01-01x')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('-10000-01-01')", "date32", []string{"-4371953", "-4371953", "-4371953", "-4371953", "-4371953", "-4371953"}},
	{"to_date('0000-01-01')", "date32", []string{"-719528", "-719528", "-719528", "-719528", "-719528", "-719528"}},
	{"to_date('9999-12-31')", "date32", []string{"2932896", "2932896", "2932896", "2932896", "2932896", "2932896"}},
	{"to_date('2021-02-30')", "ERR", nil},  // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('2021-01-01 ')", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('2021/01/01')", "ERR", nil},  // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('21-01-01')", "ERR", nil},    // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date('')", "ERR", nil},            // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date(NULL)", "date32", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_date(s)", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Unable to cast to Date32 for converting from i64 to i32 failed
	{"to_date(i64)", "date32", []string{"10", "20", "30", "40", "50", "60"}},
	{"to_date(i)", "date32", []string{"1", "2", "3", "4", "5", "NULL"}},
	{"to_date(f)", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Can't cast value NaN to type Int64
	{"to_date(ts)", "date32", []string{"18628", "18628", "NULL", "18993", "18387", "18628"}},
	{"to_date(d)", "date32", []string{"18628", "18779", "18993", "NULL", "18262", "18629"}},
	{"to_date(true)", "ERR", nil}, // External error: Query Execution error: Execution error: Unsupported data type Boolean for function to_date
	{"to_date(dec)", "date32", []string{"1", "2", "NULL", "3", "0", "1"}},
	{"to_date(to_timestamp_micros(-1))", "date32", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_date(arrow_cast(3000000000, 'Int64'))", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Can't cast value 3000000000 to type Int32
	{"to_date(from_unixtime(i64 * 3000, 'America/New_York'))", "date32", []string{"0", "0", "0", "1", "1", "1"}},
	{"to_date(from_unixtime(i64 * 3000, '-10:00'))", "date32", []string{"-1", "0", "0", "0", "1", "1"}},
	{"to_date('2021-01-01', '%Y-%m-%d')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('01/02/2021', '%m/%d/%Y')", "date32", []string{"18629", "18629", "18629", "18629", "18629", "18629"}},
	{"to_date('1969-12-31 10:00', '%Y-%m-%d %H:%M')", "date32", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_date('1969-12-31', '%Y-%m-%d')", "date32", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_date('1969-12-30 23:00', '%Y-%m-%d %H:%M')", "date32", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_date('2021-01-01 10', '%Y-%m-%d %H')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021', '%Y')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021' using format '%Y': input is
	{"to_date('2021-01-01', '%Y-%m-%d', '%m')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01', '%m', '%Y-%m-%d')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01', '%m', '%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01' using format '%d': tra
	{"to_date('2021-01-01', NULL)", "ERR", nil},       // External error: Query Execution error: Execution error: to_date function unsupported data type at index 1: Null
	{"to_date('3000-01-01', '%Y-%m-%d')", "date32", []string{"376200", "376200", "376200", "376200", "376200", "376200"}},
	{"to_date('+10000-01-01', '%Y-%m-%d')", "date32", []string{"2932897", "2932897", "2932897", "2932897", "2932897", "2932897"}},
	{"to_date('1000-01-01', '%Y-%m-%d')", "date32", []string{"-354285", "-354285", "-354285", "-354285", "-354285", "-354285"}},
	{"to_date('2021-01-01 +05:00', '%Y-%m-%d %:z')", "date32", []string{"18628", "18628", "18628", "18628", "18628", "18628"}},
	{"to_date('2021-01-01 10:00 +11:00', '%Y-%m-%d %H:%M %:z')", "date32", []string{"18627", "18627", "18627", "18627", "18627", "18627"}},
	{"to_date('2021-13-01', '%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-13-01' using format '%Y-%m-%d
	{"to_date('99', '%y')", "ERR", nil},               // External error: Query Execution error: Execution error: Error parsing timestamp from '99' using format '%y': input is no
	{"to_date('99-1-1', '%y-%m-%d')", "date32", []string{"10592", "10592", "10592", "10592", "10592", "10592"}},
	{"to_date('69-1-1', '%y-%m-%d')", "date32", []string{"36160", "36160", "36160", "36160", "36160", "36160"}},
	{"to_date('70-1-1', '%y-%m-%d')", "date32", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_date(s, '%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from 'apple' using format '%Y-%m-%d': in
	{"to_unixtime(ts)", "int64", []string{"1609459200", "1609502400", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"to_unixtime(to_timestamp('1969-12-31 23:59:59.5'))", "int64", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_unixtime(to_timestamp_millis(-1500))", "int64", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_unixtime(d)", "int64", []string{"1609459200", "1622505600", "1640995200", "NULL", "1577836800", "1609545600"}},
	{"to_unixtime(arrow_cast(-1, 'Date32'))", "int64", []string{"-86400", "-86400", "-86400", "-86400", "-86400", "-86400"}},
	{"to_unixtime('2021-01-01 00:00:00.9')", "int64", []string{"1609459200", "1609459200", "1609459200", "1609459200", "1609459200", "1609459200"}},
	{"to_unixtime('1969-12-31 23:59:59.5')", "int64", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_unixtime('2021-01-01 00:00:00+01:00')", "int64", []string{"1609455600", "1609455600", "1609455600", "1609455600", "1609455600", "1609455600"}},
	{"to_unixtime('01/02/2021', '%m/%d/%Y')", "int64", []string{"1609545600", "1609545600", "1609545600", "1609545600", "1609545600", "1609545600"}},
	{"to_unixtime('01/02/2021', '%Y', '%m/%d/%Y')", "int64", []string{"1609545600", "1609545600", "1609545600", "1609545600", "1609545600", "1609545600"}},
	{"to_unixtime('3000-01-01')", "ERR", nil}, // External error: Query Execution error: Execution error: The dates that can be represented as nanoseconds have to be betw
	{"to_unixtime(i)", "int64", []string{"1", "2", "3", "4", "5", "NULL"}},
	{"to_unixtime(i64)", "int64", []string{"10", "20", "30", "40", "50", "60"}},
	{"to_unixtime(f)", "ERR", nil},   // External error: LanceError(Arrow): Cast error: Can't cast value NaN to type Int64
	{"to_unixtime(u)", "ERR", nil},   // External error: LanceError(Arrow): Cast error: Can't cast value 9223372036854775808 to type Int64
	{"to_unixtime(dec)", "ERR", nil}, // External error: Query Execution error: Execution error: Unsupported data type Decimal128(8, 3) for function to_unixtime
	{"to_unixtime(NULL)", "int64", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_unixtime(true)", "ERR", nil}, // External error: Query Execution error: Execution error: Unsupported data type Boolean for function to_unixtime
	{"to_unixtime(from_unixtime(i64, '+05:00'))", "int64", []string{"10", "20", "30", "40", "50", "60"}},
	{"to_unixtime(1.5)", "int64", []string{"1", "1", "1", "1", "1", "1"}},
	{"to_unixtime(-1.5)", "int64", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"to_unixtime(ts, '%Y')", "ERR", nil}, // External error: Query Execution error: Execution error: to_unixtime function only accepts format arguments with string i
	{"to_unixtime(to_timestamp_nanos(-1))", "int64", []string{"0", "0", "0", "0", "0", "0"}},
	{"to_unixtime(s)", "ERR", nil}, // External error: LanceError(Arrow): Parser error: Error parsing timestamp from 'apple': timestamp must contain at least 1
	{"from_unixtime(0)", "timestamp[s]", []string{"0", "0", "0", "0", "0", "0"}},
	{"from_unixtime(-1)", "timestamp[s]", []string{"-1", "-1", "-1", "-1", "-1", "-1"}},
	{"from_unixtime(i64)", "timestamp[s]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i)", "timestamp[s]", []string{"1", "2", "3", "4", "5", "NULL"}},
	{"from_unixtime(9223372036854775807)", "timestamp[s]", []string{"9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807"}},
	{"from_unixtime(i64, 'America/New_York')", "timestamp[s, tz=America/New_York]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, 'Foo/Bar')", "timestamp[s, tz=Foo/Bar]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, NULL)", "ERR", nil}, // Query Execution error: Execution error: from_unixtime requires its second argument to be a constant string
	{"from_unixtime(i64, s)", "ERR", nil},    // Query Execution error: Execution error: from_unixtime requires its second argument to be a constant string
	{"from_unixtime('10')", "ERR", nil},      // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'from_unixtime' function: coe
	{"from_unixtime(f)", "ERR", nil},         // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'from_unixtime' function: coe
	{"from_unixtime(u)", "ERR", nil},         // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'from_unixtime' function: coe
	{"from_unixtime(NULL)", "timestamp[s]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"from_unixtime(i64, 'utc')", "timestamp[s, tz=utc]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, '+0500')", "timestamp[s, tz=+0500]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, '+05')", "timestamp[s, tz=+05]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, '+05:00')", "timestamp[s, tz=+05:00]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(i64, 'Z')", "timestamp[s, tz=Z]", []string{"10", "20", "30", "40", "50", "60"}},
	{"from_unixtime(arrow_cast(5, 'UInt32'))", "timestamp[s]", []string{"5", "5", "5", "5", "5", "5"}},
	{"to_char(d, '%Y')", "utf8", []string{"2021", "2021", "2022", "NULL", "2020", "2021"}},
	{"to_char(ts, '%Y-%m-%d %H:%M:%S')", "utf8", []string{"2021-01-01 00:00:00", "2021-01-01 12:00:00", "NULL", "2022-01-01 00:00:00", "2020-05-05 00:00:00", "2021-01-01 00:00:00"}},
	{"to_char(ts, '%Y-%m-%dT%H:%M:%S%.f')", "utf8", []string{"2021-01-01T00:00:00", "2021-01-01T12:00:00", "NULL", "2022-01-01T00:00:00", "2020-05-05T00:00:00", "2021-01-01T00:00:00"}},
	{"to_char(to_timestamp_nanos(1609459201123456789), '%Y-%m-%dT%H:%M:%S%.f')", "utf8", []string{"2021-01-01T00:00:01.123456789", "2021-01-01T00:00:01.123456789", "2021-01-01T00:00:01.123456789", "2021-01-01T00:00:01.123456789", "2021-01-01T00:00:01.123456789", "2021-01-01T00:00:01.123456789"}},
	{"to_char(to_timestamp_nanos(1609459201123000000), '%.f|%.3f|%.6f|%.9f|%3f|%6f|%9f|%f')", "utf8", []string{".123|.123|.123000|.123000000|123|123000|123000000|123000000", ".123|.123|.123000|.123000000|123|123000|123000000|123000000", ".123|.123|.123000|.123000000|123|123000|123000000|123000000", ".123|.123|.123000|.123000000|123|123000|123000000|123000000", ".123|.123|.123000|.123000000|123|123000|123000000|123000000", ".123|.123|.123000|.123000000|123|123000|123000000|123000000"}},
	{"to_char(to_timestamp_nanos(1609459201120000000), '%.f')", "utf8", []string{".120", ".120", ".120", ".120", ".120", ".120"}},
	{"to_char(to_timestamp_nanos(1609459201000000000), '%.f')", "utf8", []string{"", "", "", "", "", ""}},
	{"to_char(to_timestamp_nanos(1609459201000001000), '%.f')", "utf8", []string{".000001", ".000001", ".000001", ".000001", ".000001", ".000001"}},
	{"to_char(ts, '%a %A %b %B %h %e %j %u %w %U %W %G %g %V %C %y %D %F %v')", "utf8", []string{"Fri Friday Jan January Jan  1 001 5 5 00 00 2020 20 53 20 21 01/01/21 2021-01-01  1-Jan-2021", "Fri Friday Jan January Jan  1 001 5 5 00 00 2020 20 53 20 21 01/01/21 2021-01-01  1-Jan-2021", "NULL", "Sat Saturday Jan January Jan  1 001 6 6 00 00 2021 21 52 20 22 01/01/22 2022-01-01  1-Jan-2022", "Tue Tuesday May May May  5 126 2 2 18 18 2020 20 19 20 20 05/05/20 2020-05-05  5-May-2020", "Fri Friday Jan January Jan  1 001 5 5 00 00 2020 20 53 20 21 01/01/21 2021-01-01  1-Jan-2021"}},
	{"to_char(ts, '%H %k %I %l %P %p %M %S %R %T %X %r %x %c')", "utf8", []string{"00  0 12 12 am AM 00 00 00:00 00:00:00 00:00:00 12:00:00 AM 01/01/21 Fri Jan  1 00:00:00 2021", "12 12 12 12 pm PM 00 00 12:00 12:00:00 12:00:00 12:00:00 PM 01/01/21 Fri Jan  1 12:00:00 2021", "NULL", "00  0 12 12 am AM 00 00 00:00 00:00:00 00:00:00 12:00:00 AM 01/01/22 Sat Jan  1 00:00:00 2022", "00  0 12 12 am AM 00 00 00:00 00:00:00 00:00:00 12:00:00 AM 05/05/20 Tue May  5 00:00:00 2020", "00  0 12 12 am AM 00 00 00:00 00:00:00 00:00:00 12:00:00 AM 01/01/21 Fri Jan  1 00:00:00 2021"}},
	{"to_char(ts, '%Z')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%z')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%:z')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%+')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%s')", "utf8", []string{"1609459200", "1609502400", "NULL", "1640995200", "1588636800", "1609459200"}},
	{"to_char(ts, '%t%n%%')", "utf8", []string{"\t\n%", "\t\n%", "NULL", "\t\n%", "\t\n%", "\t\n%"}},
	{"to_char(ts, '%q')", "utf8", []string{"1", "1", "NULL", "1", "2", "1"}},
	{"to_char(ts, '%-d %-m %_m %0e %-j %_H')", "utf8", []string{"1 1  1 01 1  0", "1 1  1 01 1 12", "NULL", "1 1  1 01 1  0", "5 5  5 05 126  0", "1 1  1 01 1  0"}},
	{"to_char(ts, '%Q')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, 'abc')", "utf8", []string{"abc", "abc", "NULL", "abc", "abc", "abc"}},
	{"to_char(ts, '')", "utf8", []string{"", "", "NULL", "", "", ""}},
	{"to_char(ts, 'a  b')", "utf8", []string{"a  b", "a  b", "NULL", "a  b", "a  b", "a  b"}},
	{"to_char(d, '%H:%M')", "utf8", []string{"00:00", "00:00", "00:00", "NULL", "00:00", "00:00"}},
	{"to_char(d, '%Y-%m-%d %H')", "utf8", []string{"2021-01-01 00", "2021-06-01 00", "2022-01-01 00", "NULL", "2020-01-01 00", "2021-01-02 00"}},
	{"to_char(d, '%s')", "utf8", []string{"1609459200", "1622505600", "1640995200", "NULL", "1577836800", "1609545600"}},
	{"to_char(d, '%.f')", "utf8", []string{"", "", "", "NULL", "", ""}},
	{"to_char(d, '%z')", "ERR", nil},   // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(s, '%Y')", "ERR", nil},   // External error: LanceError(Arrow): Parser error: Error parsing timestamp from 'apple': timestamp must contain at least 1
	{"to_char(i64, '%Y')", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'to_char' function: coercion
	{"to_char(ts, s)", "utf8", []string{"apple", "Banana", "NULL", "aJan", "NULL", "date_x"}},
	{"to_char(d, s)", "utf8", []string{"apple", "Banana", "cherry", "NULL", "NULL", "date_x"}},
	{"to_char(ts, NULL)", "utf8", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_char(NULL, '%Y')", "utf8", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_char(ts)", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'to_char' function: coercion
	{"to_char(make_time(1,2,3), '%H-%M-%S')", "utf8", []string{"01-02-03", "01-02-03", "01-02-03", "01-02-03", "01-02-03", "01-02-03"}},
	{"to_char(make_time(1,2,3), '%Y')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(from_unixtime(i64, '+05:00'), '%Y-%m-%d %H:%M:%S %z %Z')", "utf8", []string{"1970-01-01 05:00:10 +0500 +05:00", "1970-01-01 05:00:20 +0500 +05:00", "1970-01-01 05:00:30 +0500 +05:00", "1970-01-01 05:00:40 +0500 +05:00", "1970-01-01 05:00:50 +0500 +05:00", "1970-01-01 05:01:00 +0500 +05:00"}},
	{"to_char(from_unixtime(i64 * 1000, 'America/New_York'), '%H %z %Z')", "utf8", []string{"21 -0500 -05:00", "00 -0500 -05:00", "03 -0500 -05:00", "06 -0500 -05:00", "08 -0500 -05:00", "11 -0500 -05:00"}},
	{"to_char(from_unixtime(i64, 'UTC'), '%Z %z %:z %::z %:::z')", "utf8", []string{"+00:00 +0000 +00:00 +00:00:00 +00", "+00:00 +0000 +00:00 +00:00:00 +00", "+00:00 +0000 +00:00 +00:00:00 +00", "+00:00 +0000 +00:00 +00:00:00 +00", "+00:00 +0000 +00:00 +00:00:00 +00", "+00:00 +0000 +00:00 +00:00:00 +00"}},
	{"to_char(from_unixtime(i64, '+05:30'), '%z %:z %::z %:::z')", "utf8", []string{"+0530 +05:30 +05:30:00 +05", "+0530 +05:30 +05:30:00 +05", "+0530 +05:30 +05:30:00 +05", "+0530 +05:30 +05:30:00 +05", "+0530 +05:30 +05:30:00 +05", "+0530 +05:30 +05:30:00 +05"}},
	{"to_char(from_unixtime(i64, '-05:30'), '%z %:z %::z %:::z %Z')", "utf8", []string{"-0530 -05:30 -05:30:00 -05 -05:30", "-0530 -05:30 -05:30:00 -05 -05:30", "-0530 -05:30 -05:30:00 -05 -05:30", "-0530 -05:30 -05:30:00 -05 -05:30", "-0530 -05:30 -05:30:00 -05 -05:30", "-0530 -05:30 -05:30:00 -05 -05:30"}},
	{"to_char(from_unixtime(i64, '+05:30'), '%#z')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(from_unixtime(i64, 'UTC'), '%+')", "utf8", []string{"1970-01-01T00:00:10+00:00", "1970-01-01T00:00:20+00:00", "1970-01-01T00:00:30+00:00", "1970-01-01T00:00:40+00:00", "1970-01-01T00:00:50+00:00", "1970-01-01T00:01:00+00:00"}},
	{"to_char(from_unixtime(i64, '+05:30'), '%+ %s')", "utf8", []string{"1970-01-01T05:30:10+05:30 10", "1970-01-01T05:30:20+05:30 20", "1970-01-01T05:30:30+05:30 30", "1970-01-01T05:30:40+05:30 40", "1970-01-01T05:30:50+05:30 50", "1970-01-01T05:31:00+05:30 60"}},
	{"to_char(to_timestamp_seconds(-62135596800 - 86400*366), '%Y %C %y')", "utf8", []string{"0000 00 00", "0000 00 00", "0000 00 00", "0000 00 00", "0000 00 00", "0000 00 00"}},
	{"to_char(to_timestamp_seconds(253402300800), '%Y %C %y')", "utf8", []string{"+10000 :0 00", "+10000 :0 00", "+10000 :0 00", "+10000 :0 00", "+10000 :0 00", "+10000 :0 00"}},
	{"to_char(to_timestamp_seconds(253402300800), '%F %D %G %g %c')", "utf8", []string{"+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000", "+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000", "+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000", "+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000", "+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000", "+10000-01-01 01/01/00 9999 99 Sat Jan  1 00:00:00 +10000"}},
	{"to_char(to_timestamp_seconds(-62167219200 - 86400), '%F %D %g %c %v')", "utf8", []string{"-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001", "-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001", "-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001", "-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001", "-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001", "-0001-12-31 12/31/99 99 Fri Dec 31 00:00:00 -0001 31-Dec--0001"}},
	{"to_char(to_timestamp_seconds(-62167219200 - 86400), '%Y %C %y %G')", "utf8", []string{"-0001 I5 99 -0001", "-0001 I5 99 -0001", "-0001 I5 99 -0001", "-0001 I5 99 -0001", "-0001 I5 99 -0001", "-0001 I5 99 -0001"}},
	{"to_char(to_timestamp_seconds(-62167219200*10), '%Y %C %y %G %g')", "utf8", []string{"-17731 78 69 -17731 69", "-17731 78 69 -17731 69", "-17731 78 69 -17731 69", "-17731 78 69 -17731 69", "-17731 78 69 -17731 69", "-17731 78 69 -17731 69"}},
	{"to_char(to_timestamp_seconds(-62167219200 - 86400), '%-Y|%_Y|%0Y|%s')", "utf8", []string{"-1|   -1|-0001|-62167305600", "-1|   -1|-0001|-62167305600", "-1|   -1|-0001|-62167305600", "-1|   -1|-0001|-62167305600", "-1|   -1|-0001|-62167305600", "-1|   -1|-0001|-62167305600"}},
	{"to_char(to_timestamp_seconds(-62135596800 + 86400*3650), '%Y|%-Y|%_Y|%0Y')", "utf8", []string{"0010|10|  10|0010", "0010|10|  10|0010", "0010|10|  10|0010", "0010|10|  10|0010", "0010|10|  10|0010", "0010|10|  10|0010"}},
	{"to_char(to_timestamp_seconds(253402300800), '%Y|%-Y|%_Y|%0Y')", "utf8", []string{"+10000|+10000|+10000|+10000", "+10000|+10000|+10000|+10000", "+10000|+10000|+10000|+10000", "+10000|+10000|+10000|+10000", "+10000|+10000|+10000|+10000", "+10000|+10000|+10000|+10000"}},
	{"to_char(to_timestamp_seconds(5), '%s|%-s|%_s|%0s')", "utf8", []string{"5|5|        5|000000005", "5|5|        5|000000005", "5|5|        5|000000005", "5|5|        5|000000005", "5|5|        5|000000005", "5|5|        5|000000005"}},
	{"to_char(to_timestamp_seconds(-5), '%s|%-s|%_s|%0s')", "utf8", []string{"-5|-5|       -5|-00000005", "-5|-5|       -5|-00000005", "-5|-5|       -5|-00000005", "-5|-5|       -5|-00000005", "-5|-5|       -5|-00000005", "-5|-5|       -5|-00000005"}},
	{"to_char(ts, '%.4f')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%4f')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-f')", "utf8", []string{"0", "0", "NULL", "0", "0", "0"}},
	{"to_char(ts, '%_f')", "utf8", []string{"        0", "        0", "NULL", "        0", "        0", "        0"}},
	{"to_char(ts, '%-.f')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-q')", "utf8", []string{"1", "1", "NULL", "1", "2", "1"}},
	{"to_char(ts, '%-a')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-%')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-t')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-T')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%-F')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%--d')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%E')", "ERR", nil},   // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%Od')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%#Z')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%:a')", "ERR", nil},  // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(ts, '%k|%-k|%0k|%_l|%0l|%-l')", "utf8", []string{" 0|0|00|12|12|12", "12|12|12|12|12|12", "NULL", " 0|0|00|12|12|12", " 0|0|00|12|12|12", " 0|0|00|12|12|12"}},
	{"to_char(ts, '%-j|%_j|%0j')", "utf8", []string{"1|  1|001", "1|  1|001", "NULL", "1|  1|001", "126|126|126", "1|  1|001"}},
	{"to_char(to_timestamp('2021-01-01 13:05:07'), '%I %l %p %P %r')", "utf8", []string{"01  1 PM pm 01:05:07 PM", "01  1 PM pm 01:05:07 PM", "01  1 PM pm 01:05:07 PM", "01  1 PM pm 01:05:07 PM", "01  1 PM pm 01:05:07 PM", "01  1 PM pm 01:05:07 PM"}},
	{"to_char(to_timestamp('2021-01-03 13:05:07'), '%U %W %V %u %w')", "utf8", []string{"01 00 53 7 0", "01 00 53 7 0", "01 00 53 7 0", "01 00 53 7 0", "01 00 53 7 0", "01 00 53 7 0"}},
	{"to_char(to_timestamp('2023-01-01 00:00:00'), '%U %W %V %G')", "utf8", []string{"01 00 52 2022", "01 00 52 2022", "01 00 52 2022", "01 00 52 2022", "01 00 52 2022", "01 00 52 2022"}},
	{"to_char(to_timestamp('2021-12-31 13:05:07'), '%U %W %V %j')", "utf8", []string{"52 52 52 365", "52 52 52 365", "52 52 52 365", "52 52 52 365", "52 52 52 365", "52 52 52 365"}},
	{"to_char(to_timestamp('1969-12-31 23:59:59.5'), '%s %f')", "utf8", []string{"-1 500000000", "-1 500000000", "-1 500000000", "-1 500000000", "-1 500000000", "-1 500000000"}},
	{"to_char(to_timestamp('1900-01-01 00:00:00'), '%s')", "utf8", []string{"-2208988800", "-2208988800", "-2208988800", "-2208988800", "-2208988800", "-2208988800"}},
	{"to_char(ts, '\u00e9%Y\u00fc')", "utf8", []string{"\u00e92021\u00fc", "\u00e92021\u00fc", "NULL", "\u00e92022\u00fc", "\u00e92020\u00fc", "\u00e92021\u00fc"}},
	{"to_char(ts, '%\u00e9')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"date_format(ts, '%d/%m')", "utf8", []string{"01/01", "01/01", "NULL", "01/01", "05/05", "01/01"}},
	{"to_char(to_timestamp_seconds(9223372036854775807), '%Y')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Failed to convert 9223372036854775807 to datetime for Timestamp(s)
	{"to_char(arrow_cast(2147483647, 'Date32'), '%Y')", "ERR", nil},          // External error: LanceError(Arrow): Cast error: Failed to convert 185542587100800000 to temporal for Date64
	{"to_char(arrow_cast(95026236, 'Date32'), '%Y')", "utf8", []string{"+262142", "+262142", "+262142", "+262142", "+262142", "+262142"}},
	{"to_char(arrow_cast(95026237, 'Date32'), '%Y')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Failed to convert 8210266876800000 to temporal for Date64
	{"to_char(arrow_cast(-96465292, 'Date32'), '%Y %C')", "utf8", []string{"-262143 C4", "-262143 C4", "-262143 C4", "-262143 C4", "-262143 C4", "-262143 C4"}},
	{"to_char('2021-01-01 10:11:12', '%H')", "utf8", []string{"10", "10", "10", "10", "10", "10"}},
	// constants take DataFusion's scalar paths
	{"date_trunc('minute', from_unixtime(-7486979248, 'Europe/Berlin'))", "timestamp[s, tz=Europe/Berlin]", []string{"-7486979220", "-7486979220", "-7486979220", "-7486979220", "-7486979220", "-7486979220"}},
	{"date_trunc('second', from_unixtime(-7486979248, 'Europe/Berlin'))", "timestamp[s, tz=Europe/Berlin]", []string{"-7486979248", "-7486979248", "-7486979248", "-7486979248", "-7486979248", "-7486979248"}},
	{"date_trunc('day', to_timestamp_seconds(-8334601228800))", "ERR", nil},    // External error: Query Execution error: Execution error: Timestamp -8334601228800 out of range
	{"date_trunc('second', to_timestamp_seconds(-8334601228800))", "ERR", nil}, // External error: Query Execution error: Execution error: Timestamp -8334601228800 out of range
	{"date_trunc('hour', from_unixtime(-7486979248, 'Europe/Berlin'))", "timestamp[s, tz=Europe/Berlin]", []string{"-7486980808", "-7486980808", "-7486980808", "-7486980808", "-7486980808", "-7486980808"}},
	{"date_bin(interval '1 day', to_timestamp_nanos(-9000000000000000000), to_timestamp_nanos(1000000000000000000))", "timestamp[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"date_trunc('minute', to_timestamp_micros(-1))", "timestamp[us]", []string{"-60000000", "-60000000", "-60000000", "-60000000", "-60000000", "-60000000"}},
	// make_time, to_time, to_local_time
	{"make_time(1,2,3)", "time32[s]", []string{"3723", "3723", "3723", "3723", "3723", "3723"}},
	{"make_time(23,59,59)", "time32[s]", []string{"86399", "86399", "86399", "86399", "86399", "86399"}},
	{"make_time(24,0,0)", "ERR", nil}, // External error: Query Execution error: Execution error: Unable to parse time from 24, 0, 0
	{"make_time(0,60,0)", "ERR", nil}, // External error: Query Execution error: Execution error: Unable to parse time from 0, 60, 0
	{"make_time(0,0,60)", "ERR", nil}, // External error: Query Execution error: Execution error: Unable to parse time from 0, 0, 60
	{"make_time(-1,0,0)", "ERR", nil}, // External error: Query Execution error: Execution error: Hour value '-1' is out of range
	{"make_time(i,2,3)", "time32[s]", []string{"3723", "7323", "10923", "14523", "18123", "NULL"}},
	{"make_time('1','2','3')", "time32[s]", []string{"3723", "3723", "3723", "3723", "3723", "3723"}},
	{"make_time(1.5,2,3)", "ERR", nil}, // Invalid user input: Error during planning: Function 'make_time' requires Int32, but received Float64 (DataType: Float64)
	{"make_time(NULL,2,3)", "time32[s]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"make_time(i64,2,3)", "ERR", nil}, // External error: Query Execution error: Execution error: Hour value '30' is out of range
	{"to_time('01:02:03')", "time64[ns]", []string{"3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000"}},
	{"to_time('01:02:03.5')", "time64[ns]", []string{"3723500000000", "3723500000000", "3723500000000", "3723500000000", "3723500000000", "3723500000000"}},
	{"to_time('1:02:03')", "time64[ns]", []string{"3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000"}},
	{"to_time('01:02')", "time64[ns]", []string{"3720000000000", "3720000000000", "3720000000000", "3720000000000", "3720000000000", "3720000000000"}},
	{"to_time('1:02 PM')", "ERR", nil},     // External error: Query Execution error: Execution error: Error parsing '1:02 PM' as time. Tried formats: ["%H:%M:%S%.f",
	{"to_time('01:02:03 pm')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing '01:02:03 pm' as time. Tried formats: ["%H:%M:%S%.
	{"to_time('12:00:00 AM')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing '12:00:00 AM' as time. Tried formats: ["%H:%M:%S%.
	{"to_time('24:00:00')", "ERR", nil},    // External error: Query Execution error: Execution error: Error parsing '24:00:00' as time. Tried formats: ["%H:%M:%S%.f",
	{"to_time('23:59:60')", "time64[ns]", []string{"86400000000000", "86400000000000", "86400000000000", "86400000000000", "86400000000000", "86400000000000"}},
	{"to_time('010203')", "ERR", nil},              // External error: Query Execution error: Execution error: Error parsing '010203' as time. Tried formats: ["%H:%M:%S%.f", "
	{"to_time('01:02:03Z')", "ERR", nil},           // External error: Query Execution error: Execution error: Error parsing '01:02:03Z' as time. Tried formats: ["%H:%M:%S%.f"
	{"to_time('2021-01-01 01:02:03')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing '2021-01-01 01:02:03' as time. Tried formats: ["%H
	{"to_time(s)", "ERR", nil},                     // External error: Query Execution error: Execution error: Error parsing 'apple' as time. Tried formats: ["%H:%M:%S%.f", "%
	{"to_time(NULL)", "time64[ns]", []string{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}},
	{"to_time(ts)", "time64[ns]", []string{"0", "43200000000000", "NULL", "0", "0", "0"}},
	{"to_time(i64)", "ERR", nil}, // External error: Query Execution error: Execution error: Unsupported data type Int64 for function to_time
	{"to_time('01-02-03', '%H-%M-%S')", "time64[ns]", []string{"3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000"}},
	{"to_time('01-02', '%H-%M')", "time64[ns]", []string{"3720000000000", "3720000000000", "3720000000000", "3720000000000", "3720000000000", "3720000000000"}},
	{"to_time('01', '%H')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing '01' as time. Tried formats: ["%H"]
	{"to_time('2021-01-01 01:02:03', '%Y-%m-%d %H:%M:%S')", "time64[ns]", []string{"3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000", "3723000000000"}},
	{"to_time('01:02:03.123456789')", "time64[ns]", []string{"3723123456789", "3723123456789", "3723123456789", "3723123456789", "3723123456789", "3723123456789"}},
	{"to_time('01:02:03.1234567891')", "time64[ns]", []string{"3723123456789", "3723123456789", "3723123456789", "3723123456789", "3723123456789", "3723123456789"}},
	{"to_local_time(ts)", "timestamp[us]", []string{"1609459200000000", "1609502400000000", "NULL", "1640995200000000", "1588636800000000", "1609459200000000"}},
	{"to_local_time(from_unixtime(i64 * 1000, 'America/New_York'))", "timestamp[s]", []string{"-8000", "2000", "12000", "22000", "32000", "42000"}},
	{"to_local_time(d)", "ERR", nil}, // Invalid user input: Error during planning: Function 'to_local_time' requires Timestamp, but received Date (DataType: Dat
}

// timeValueCases2 are projections over timeBatch2, generated with pylance
// 14.0.2 (/tmp/tq/gen/mk2.py, DS=/tmp/tq/ds2/t.lance KEY=k gen.py).
var timeValueCases2 = []timeValueCase{
	{"date_trunc('day', tss)", "timestamp[s]", []string{"-86400", "0", "1615680000", "1636243200", "951782400", "NULL"}},
	{"date_trunc('second', tsms)", "timestamp[ms]", []string{"-1000", "0", "1615705200000", "1636264800000", "951782400000", "NULL"}},
	{"date_trunc('millisecond', tsns)", "timestamp[ns]", []string{"-1000000", "0", "1615705200123000000", "1636264800500000000", "951782400000000000", "NULL"}},
	{"date_trunc('microsecond', tsns)", "timestamp[ns]", []string{"-1000", "0", "1615705200123456000", "1636264800500000000", "951782400000000000", "NULL"}},
	{"date_trunc('hour', tsns)", "timestamp[ns]", []string{"-3600000000000", "0", "1615705200000000000", "1636264800000000000", "951782400000000000", "NULL"}},
	{"date_trunc('week', tsms)", "timestamp[ms]", []string{"-259200000", "-259200000", "1615161600000", "1635724800000", "951696000000", "NULL"}},
	{"date_trunc('year', tss)", "timestamp[s]", []string{"-31536000", "0", "1609459200", "1609459200", "946684800", "NULL"}},
	{"date_trunc('day', tsny)", "timestamp[us, tz=America/New_York]", []string{"-68400000000", "-68400000000", "1615698000000000", "1636257600000000", "951714000000000", "NULL"}},
	{"date_trunc('hour', tsny)", "timestamp[us, tz=America/New_York]", []string{"-3600000000", "0", "1615705200000000", "1636264800000000", "951782400000000", "NULL"}},
	{"date_trunc('month', tsny)", "timestamp[us, tz=America/New_York]", []string{"-2660400000000", "-2660400000000", "1614574800000000", "1635739200000000", "949381200000000", "NULL"}},
	{"date_trunc('day', tsutc)", "timestamp[us, tz=UTC]", []string{"-86400000000", "0", "1615680000000000", "1636243200000000", "951782400000000", "NULL"}},
	{"date_trunc('day', tsoff)", "timestamp[ms, tz=+05:30]", []string{"-19800000", "-19800000", "1615660200000", "1636223400000", "951762600000", "NULL"}},
	{"date_trunc('hour', tsoff)", "timestamp[ms, tz=+05:30]", []string{"-1800000", "-1800000", "1615703400000", "1636263000000", "951780600000", "NULL"}},
	{"date_trunc('minute', tsoff)", "timestamp[ms, tz=+05:30]", []string{"-60000", "0", "1615705200000", "1636264800000", "951782400000", "NULL"}},
	{"date_trunc('day', d64)", "timestamp[ns]", []string{"-86400000000000", "0", "1615680000000000000", "1636243200000000000", "951782400000000000", "NULL"}},
	{"date_trunc('hour', t64ns)", "time64[ns]", []string{"0", "0", "3600000000000", "82800000000000", "43200000000000", "NULL"}},
	{"date_part('year', tss)", "int32", []string{"1969", "1970", "2021", "2021", "2000", "NULL"}},
	{"date_part('epoch', tss)", "float64", []string{"-1.0", "0.0", "1615705200.0", "1636264800.0", "951782400.0", "NULL"}},
	{"date_part('epoch', tsms)", "float64", []string{"-0.001", "0.0", "1615705200.123", "1636264800.5", "951782400.0", "NULL"}},
	{"date_part('epoch', tsns)", "float64", []string{"-1e-09", "0.0", "1615705200.1234567", "1636264800.5", "951782400.0", "NULL"}},
	{"date_part('nanosecond', tsns)", "int64", []string{"59999999999", "0", "123456789", "500000000", "1", "NULL"}},
	{"date_part('microsecond', tsns)", "int32", []string{"59999999", "0", "123456", "500000", "0", "NULL"}},
	{"date_part('millisecond', tsms)", "int32", []string{"59999", "0", "123", "500", "0", "NULL"}},
	{"date_part('second', tsns)", "int32", []string{"59", "0", "0", "0", "0", "NULL"}},
	{"date_part('dow', tsms)", "int32", []string{"3", "4", "0", "0", "2", "NULL"}},
	{"date_part('doy', tsns)", "int32", []string{"365", "1", "73", "311", "60", "NULL"}},
	{"date_part('week', tss)", "int32", []string{"1", "1", "10", "44", "9", "NULL"}},
	{"date_part('hour', tsny)", "int32", []string{"18", "19", "3", "1", "19", "NULL"}},
	{"date_part('day', tsny)", "int32", []string{"31", "31", "14", "7", "28", "NULL"}},
	{"date_part('epoch', tsny)", "float64", []string{"-1e-06", "0.0", "1615705200.123456", "1636264800.5", "951782400.0", "NULL"}},
	{"date_part('hour', tsoff)", "int32", []string{"5", "5", "12", "11", "5", "NULL"}},
	{"date_part('minute', tsoff)", "int32", []string{"29", "30", "30", "30", "30", "NULL"}},
	{"date_part('year', d64)", "int32", []string{"1969", "1970", "2021", "2021", "2000", "NULL"}},
	{"date_part('epoch', d64)", "float64", []string{"-0.001", "0.0", "1615705200.123", "1636264800.5", "951782400.0", "NULL"}},
	{"date_part('hour', d64)", "int32", []string{"23", "0", "7", "6", "0", "NULL"}},
	{"date_part('hour', t32s)", "int32", []string{"0", "0", "1", "23", "12", "NULL"}},
	{"date_part('minute', t32s)", "int32", []string{"0", "0", "2", "59", "0", "NULL"}},
	{"date_part('second', t32ms)", "int32", []string{"0", "0", "3", "59", "0", "NULL"}},
	{"date_part('millisecond', t32ms)", "int32", []string{"0", "1", "3500", "59999", "0", "NULL"}},
	{"date_part('microsecond', t64us)", "int32", []string{"0", "1", "3500001", "59999999", "0", "NULL"}},
	{"date_part('nanosecond', t64ns)", "int64", []string{"0", "1", "3500000001", "59999999999", "0", "NULL"}},
	{"date_part('epoch', t32s)", "float64", []string{"0.0", "1.0", "3723.0", "86399.0", "43200.0", "NULL"}},
	{"date_part('epoch', t32ms)", "float64", []string{"0.0", "0.001", "3723.5", "86399.999", "43200.0", "NULL"}},
	{"date_part('epoch', t64us)", "float64", []string{"0.0", "1e-06", "3723.500001", "86399.999999", "43200.0", "NULL"}},
	{"date_part('epoch', t64ns)", "float64", []string{"0.0", "1e-09", "3723.500000001", "86399.999999999", "43200.0", "NULL"}},
	{"date_part('year', t64ns)", "ERR", nil}, // External error: LanceError(Arrow): Compute error: Year does not support: Time64(ns)
	{"date_part('dow', t32s)", "ERR", nil},   // External error: LanceError(Arrow): Compute error: DayOfWeekSunday0 does not support: Time32(s)
	{"date_bin(interval '1 day', tss)", "timestamp[s]", []string{"-86400", "0", "1615680000", "1636243200", "951782400", "NULL"}},
	{"date_bin(interval '1 hour', tsms)", "timestamp[ms]", []string{"-3600000", "0", "1615705200000", "1636264800000", "951782400000", "NULL"}},
	{"date_bin(interval '1 month', tsns)", "ERR", nil}, // External error: LanceError(Arrow): Compute error: Execution error: Invalid timestamp value
	{"date_bin(interval '1 day', tsny)", "timestamp[ns, tz=America/New_York]", []string{"-86400000000000", "0", "1615680000000000000", "1636243200000000000", "951782400000000000", "NULL"}},
	{"date_bin(interval '1 day', tsutc)", "timestamp[ns, tz=UTC]", []string{"-86400000000000", "0", "1615680000000000000", "1636243200000000000", "951782400000000000", "NULL"}},
	{"date_bin(interval '1 day', tsns, to_timestamp('2000-01-01T12:00:00'))", "timestamp[ns]", []string{"-43200000000000", "-43200000000000", "1615636800000000000", "1636200000000000000", "951739200000000000", "NULL"}},
	{"date_bin(interval '1 day', tsny, to_timestamp('2000-01-01T12:00:00'))", "timestamp[ns, tz=America/New_York]", []string{"-43200000000000", "-43200000000000", "1615636800000000000", "1636200000000000000", "951739200000000000", "NULL"}},
	{"date_bin(interval '1 day', tsoff, to_timestamp('2000-01-01T12:00:00'))", "timestamp[ns, tz=+05:30]", []string{"-43200000000000", "-43200000000000", "1615636800000000000", "1636200000000000000", "951739200000000000", "NULL"}},
	{"date_bin(interval '1 day', d64)", "ERR", nil}, // Invalid user input: Error during planning: Failed to coerce arguments to satisfy a call to 'date_bin' function: coercion
	{"date_bin(interval '1 hour', t64ns)", "time64[ns]", []string{"0", "0", "3600000000000", "82800000000000", "43200000000000", "NULL"}},
	{"to_char(tss, '%Y-%m-%d %H:%M:%S')", "utf8", []string{"1969-12-31 23:59:59", "1970-01-01 00:00:00", "2021-03-14 07:00:00", "2021-11-07 06:00:00", "2000-02-29 00:00:00", "NULL"}},
	{"to_char(tsms, '%Y-%m-%d %H:%M:%S%.f')", "utf8", []string{"1969-12-31 23:59:59.999", "1970-01-01 00:00:00", "2021-03-14 07:00:00.123", "2021-11-07 06:00:00.500", "2000-02-29 00:00:00", "NULL"}},
	{"to_char(tsns, '%Y-%m-%d %H:%M:%S%.f')", "utf8", []string{"1969-12-31 23:59:59.999999999", "1970-01-01 00:00:00", "2021-03-14 07:00:00.123456789", "2021-11-07 06:00:00.500", "2000-02-29 00:00:00.000000001", "NULL"}},
	{"to_char(tsns, '%s %f %3f %6f %9f')", "utf8", []string{"-1 999999999 999 999999 999999999", "0 000000000 000 000000 000000000", "1615705200 123456789 123 123456 123456789", "1636264800 500000000 500 500000 500000000", "951782400 000000001 000 000000 000000001", "NULL"}},
	{"to_char(tsny, '%Y-%m-%d %H:%M:%S %z %Z %:z')", "utf8", []string{"1969-12-31 18:59:59 -0500 -05:00 -05:00", "1969-12-31 19:00:00 -0500 -05:00 -05:00", "2021-03-14 03:00:00 -0400 -04:00 -04:00", "2021-11-07 01:00:00 -0500 -05:00 -05:00", "2000-02-28 19:00:00 -0500 -05:00 -05:00", "NULL"}},
	{"to_char(tsny, '%+')", "utf8", []string{"1969-12-31T18:59:59.999999-05:00", "1969-12-31T19:00:00-05:00", "2021-03-14T03:00:00.123456-04:00", "2021-11-07T01:00:00.500-05:00", "2000-02-28T19:00:00-05:00", "NULL"}},
	{"to_char(tsny, '%s')", "utf8", []string{"-1", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_char(tsutc, '%+ %Z')", "utf8", []string{"1969-12-31T23:59:59.999999+00:00 +00:00", "1970-01-01T00:00:00+00:00 +00:00", "2021-03-14T07:00:00.123456+00:00 +00:00", "2021-11-07T06:00:00.500+00:00 +00:00", "2000-02-29T00:00:00+00:00 +00:00", "NULL"}},
	{"to_char(tsoff, '%+ %Z %z %::z %:::z')", "utf8", []string{"1970-01-01T05:29:59.999+05:30 +05:30 +0530 +05:30:00 +05", "1970-01-01T05:30:00+05:30 +05:30 +0530 +05:30:00 +05", "2021-03-14T12:30:00.123+05:30 +05:30 +0530 +05:30:00 +05", "2021-11-07T11:30:00.500+05:30 +05:30 +0530 +05:30:00 +05", "2000-02-29T05:30:00+05:30 +05:30 +0530 +05:30:00 +05", "NULL"}},
	{"to_char(tsoff, '%s %H')", "utf8", []string{"-1 05", "0 05", "1615705200 12", "1636264800 11", "951782400 05", "NULL"}},
	{"to_char(d64, '%Y-%m-%d %H:%M:%S%.f')", "utf8", []string{"1969-12-31 23:59:59.999", "1970-01-01 00:00:00", "2021-03-14 07:00:00.123", "2021-11-07 06:00:00.500", "2000-02-29 00:00:00", "NULL"}},
	{"to_char(t32s, '%H:%M:%S')", "utf8", []string{"00:00:00", "00:00:01", "01:02:03", "23:59:59", "12:00:00", "NULL"}},
	{"to_char(t32s, '%r %p %I')", "utf8", []string{"12:00:00 AM AM 12", "12:00:01 AM AM 12", "01:02:03 AM AM 01", "11:59:59 PM PM 11", "12:00:00 PM PM 12", "NULL"}},
	{"to_char(t32ms, '%T%.f')", "utf8", []string{"00:00:00", "00:00:00.001", "01:02:03.500", "23:59:59.999", "12:00:00", "NULL"}},
	{"to_char(t64us, '%T%.6f')", "utf8", []string{"00:00:00.000000", "00:00:00.000001", "01:02:03.500001", "23:59:59.999999", "12:00:00.000000", "NULL"}},
	{"to_char(t64ns, '%T%.9f')", "utf8", []string{"00:00:00.000000000", "00:00:00.000000001", "01:02:03.500000001", "23:59:59.999999999", "12:00:00.000000000", "NULL"}},
	{"to_char(t64ns, '%Y')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(t64ns, '%s')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(t64ns, '%z')", "ERR", nil}, // External error: LanceError(Arrow): Cast error: Format error
	{"to_char(tss, fmt)", "utf8", []string{"1969", "00:00", "1615705200", "NULL", "29", "NULL"}},
	{"to_char(tsny, fmt)", "utf8", []string{"1969", "19:00", "1615705200", "NULL", "28", "NULL"}},
	{"to_char(str, '%Y')", "utf8", []string{"2021", "2021", "2021", "1999", "NULL", "2021"}},
	{"to_timestamp(tss)", "timestamp[ns]", []string{"-1000000000", "0", "1615705200000000000", "1636264800000000000", "951782400000000000", "NULL"}},
	{"to_timestamp(tsny)", "timestamp[ns]", []string{"-1000", "0", "1615705200123456000", "1636264800500000000", "951782400000000000", "NULL"}},
	{"to_timestamp_seconds(tsns)", "timestamp[s]", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_timestamp_seconds(tsny)", "timestamp[s]", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_timestamp_millis(tsoff)", "timestamp[ms]", []string{"-1", "0", "1615705200123", "1636264800500", "951782400000", "NULL"}},
	{"to_timestamp_micros(tss)", "timestamp[us]", []string{"-1000000", "0", "1615705200000000", "1636264800000000", "951782400000000", "NULL"}},
	{"to_timestamp(str)", "timestamp[ns]", []string{"1609459200000000000", "1609495200000000000", "1609477200000000000", "946684799999000000", "NULL", "1625011200000000000"}},
	{"to_timestamp_seconds(str)", "timestamp[s]", []string{"1609459200", "1609495200", "1609477200", "946684799", "NULL", "1625011200"}},
	{"to_timestamp(str, '%Y-%m-%d', '%Y-%m-%d %H:%M:%S')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01T10:00:00+05:00' using f
	{"to_timestamp(str, fmt)", "ERR", nil},             // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01' using format '%Y': tra
	{"to_timestamp(str, fmt, '%Y-%m-%d')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01 10:00:00' using format
	{"to_date(str)", "date32", []string{"18628", "18628", "18628", "10956", "NULL", "18808"}},
	{"to_date(tss)", "date32", []string{"-1", "0", "18700", "18938", "11016", "NULL"}},
	{"to_date(tsny)", "date32", []string{"-1", "-1", "18700", "18938", "11015", "NULL"}},
	{"to_date(tsoff)", "date32", []string{"0", "0", "18700", "18938", "11016", "NULL"}},
	{"to_date(d64)", "date32", []string{"0", "0", "18700", "18938", "11016", "NULL"}},
	{"to_date(str, '%Y-%m-%d', '%Y-%m-%d %H:%M:%S')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing timestamp from '2021-01-01T10:00:00+05:00' using f
	{"to_unixtime(tss)", "int64", []string{"-1", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_unixtime(tsms)", "int64", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_unixtime(tsns)", "int64", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_unixtime(tsny)", "int64", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_unixtime(d64)", "int64", []string{"0", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"to_unixtime(str)", "int64", []string{"1609459200", "1609495200", "1609477200", "946684799", "NULL", "1625011200"}},
	{"to_time(tss)", "time64[ns]", []string{"86399000000000", "0", "25200000000000", "21600000000000", "0", "NULL"}},
	{"to_time(tsny)", "time64[ns]", []string{"68399999999000", "68400000000000", "10800123456000", "3600500000000", "68400000000000", "NULL"}},
	{"to_time(tsns)", "time64[ns]", []string{"86399999999999", "0", "25200123456789", "21600500000000", "1", "NULL"}},
	{"to_time(str, '%Y-%m-%d %H:%M:%S')", "ERR", nil}, // External error: Query Execution error: Execution error: Error parsing '2021-01-01' as time. Tried formats: ["%Y-%m-%d %H
	{"to_local_time(tsny)", "timestamp[us]", []string{"-18000000001", "-18000000000", "1615690800123456", "1636246800500000", "951764400000000", "NULL"}},
	{"to_local_time(tsoff)", "timestamp[ms]", []string{"19799999", "19800000", "1615725000123", "1636284600500", "951802200000", "NULL"}},
	{"to_local_time(tsutc)", "timestamp[us]", []string{"-1", "0", "1615705200123456", "1636264800500000", "951782400000000", "NULL"}},
	{"to_local_time(tss)", "timestamp[s]", []string{"-1", "0", "1615705200", "1636264800", "951782400", "NULL"}},
	{"date_trunc('day', str)", "timestamp[ns]", []string{"1609459200000000000", "1609459200000000000", "1609459200000000000", "946598400000000000", "NULL", "1625011200000000000"}},
	{"date_part('hour', str)", "int32", []string{"0", "10", "5", "23", "NULL", "0"}},
}

// timeFilterCases are filters over timeBatch, generated with pylance
// 14.0.2 (gen.py filter); now() is the time of the run, after every ts.
var timeFilterCases = []timeFilterCase{
	{"date_trunc('day', ts) = timestamp '2021-01-01 00:00:00'", []int64{10, 20, 60}},
	{"date_part('year', ts) = 2021", []int64{10, 20, 60}},
	{"to_char(d, '%Y') = '2021'", []int64{10, 20, 60}},
	{"date_bin(interval '1 day', ts) = ts", []int64{10, 40, 50, 60}},
	{"make_date(2021, 1, 1) = d", []int64{10}},
	{"to_timestamp('2021-01-01T00:00:00') = ts", []int64{10, 60}},
	{"to_date('2021-01-01') = d", []int64{10}},
	{"ts < now()", []int64{10, 20, 40, 50, 60}},
	{"ts > now()", []int64{}},
	{"current_date() > d", []int64{10, 20, 30, 50, 60}},
	{"d < current_date", []int64{10, 20, 30, 50, 60}},
	{"d < today()", []int64{10, 20, 30, 50, 60}},
	{"ts < current_timestamp", []int64{10, 20, 40, 50, 60}},
	{"date_trunc('month', ts) = timestamp '2021-01-01'", []int64{10, 20, 60}},
	{"date_trunc('year', d) = date '2021-01-01'", []int64{10, 20, 60}},
	{"date_trunc('day', d) = d", []int64{10, 20, 30, 50, 60}},
	{"date_trunc('week', ts) < ts", []int64{10, 20, 40, 50, 60}},
	{"date_trunc('hour', ts) = ts", []int64{10, 20, 40, 50, 60}},
	{"date_trunc('quarter', ts) = timestamp '2020-04-01 00:00:00'", []int64{50}},
	{"date_trunc('nope', ts) = ts", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Execution error: Unsupported date_trun
	{"date_part('month', ts) = 1", []int64{10, 20, 40, 60}},
	{"date_part('day', d) = 1", []int64{10, 20, 30, 50}},
	{"date_part('dow', d) = 5", []int64{10}},
	{"date_part('hour', ts) = 12", []int64{20}},
	{"date_part('epoch', ts) = 1609459200", []int64{10, 60}},
	{"date_part('epoch', ts) > 1.6e9", []int64{10, 20, 40, 60}},
	{"date_part('doy', d) > 100", []int64{20}},
	{"date_part('week', d) = 53", []int64{10, 60}},
	{"date_part('year', d) BETWEEN 2020 AND 2021", []int64{10, 20, 50, 60}},
	{"date_part('quarter', d) IN (2, 3)", []int64{20}},
	{"date_part('nanosecond', ts) = 0", []int64{10, 20, 40, 50, 60}},
	{"date_part('nope', ts) = 1", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Execution error: Date part 'nope' not
	{"datepart('year', d) = 2022", []int64{30}},
	{"extract(year from ts) = 2021", nil}, // ERR Invalid user input: Expression 'EXTRACT(YEAR FROM ts)' is not supported SQL in lance
	{"to_timestamp('2021-01-01 12:00:00') = ts", []int64{20}},
	{"to_timestamp('2021-01-01') < ts", []int64{20, 40}},
	{"to_timestamp(i64) < timestamp '1970-01-01 00:00:35'", []int64{10, 20, 30}},
	{"to_timestamp_seconds(i64) = timestamp '1970-01-01 00:00:10'", []int64{10}},
	{"to_timestamp_millis(i64) < to_timestamp_millis(30)", []int64{10, 20}},
	{"to_timestamp(s) IS NULL", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Arrow error: Parser error: Error parsi
	{"to_timestamp(d) = ts", nil},    // ERR External error: Query Execution error: Error applying filter expression to batch: Execution error: Unsupported data type
	{"to_date(ts) = d", []int64{10}},
	{"to_date(s) = d", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Arrow error: Parser error: Unable to c
	{"to_date('1969-12-31') < d", []int64{10, 20, 30, 50, 60}},
	{"to_date('01/02/2021', '%m/%d/%Y') = d", []int64{60}},
	{"to_date(i64) < date '1970-02-01'", []int64{10, 20, 30}},
	{"to_char(d, '%Y-%m-%d') = '2021-01-01'", []int64{10}},
	{"to_char(ts, '%H:%M') = '12:00'", []int64{20}},
	{"to_char(ts, '%Y') < '2021'", []int64{50}},
	{"to_char(ts, '%Y-%m-%d %H:%M:%S') = '2021-01-01 00:00:00'", []int64{10, 60}},
	{"date_format(d, '%m') = '06'", []int64{20}},
	{"to_char(ts, '%Q') = 'x'", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Arrow error: Cast error: Format error
	{"make_date(2020, 2, 29) > d", []int64{50}},
	{"make_date(2021, 2, 29) = d", nil}, // ERR External error: Query Execution error: Error applying filter expression to batch: Execution error: Unable to parse date
	{"make_date(i + 2019, 1, 1) = d", []int64{30}},
	{"make_date(i + 2020, 1, 1) = d", []int64{10}},
	{"date_bin(interval '1 hour', ts) < ts", []int64{}},
	{"date_bin(interval '12 hours', ts) = ts", []int64{10, 20, 40, 50, 60}},
	{"date_bin(interval '1 day', ts, timestamp '2000-01-01 12:00:00') < ts", []int64{10, 40, 50, 60}},
	{"date_bin(interval '1 month', ts) = ts", []int64{10, 40, 60}},
	{"date_bin(interval '1 day', d) = d", []int64{10, 20, 30, 50, 60}},
	{"to_unixtime(ts) > 1600000000", []int64{10, 20, 40, 60}},
	{"to_unixtime(d) = 1609459200", []int64{10}},
	{"to_unixtime('2021-01-01') = to_unixtime(ts)", []int64{10, 60}},
	{"from_unixtime(1609459200) = ts", []int64{10, 60}},
	{"from_unixtime(i64) < timestamp '1970-01-01 00:00:30'", []int64{10, 20}},
	{"date_part('year', now()) > 2000", []int64{10, 20, 30, 40, 50, 60}},
	{"date_trunc('day', now()) <= now()", []int64{10, 20, 30, 40, 50, 60}},
	{"now() = now()", []int64{10, 20, 30, 40, 50, 60}},
	{"current_date = today()", []int64{10, 20, 30, 40, 50, 60}},
	{"to_timestamp('2021-01-01T00:00:00') = timestamp '2021-01-01 00:00:00'", []int64{10, 20, 30, 40, 50, 60}},
	{"date_trunc('day', ts) = date '2021-01-01'", []int64{10, 20, 60}},
	{"ts > date_trunc('year', d)", []int64{20, 50}},
	{"date_bin(interval '1 day', ts) = date_trunc('day', ts)", []int64{10, 20, 40, 50, 60}},
	{"to_char(date_trunc('month', ts), '%Y-%m') = '2021-01'", []int64{10, 20, 60}},
	{"date_part('year', date_trunc('year', d)) = 2021", []int64{10, 20, 60}},
	{"to_timestamp(to_char(ts, '%Y-%m-%dT%H:%M:%S')) = ts", []int64{10, 20, 40, 50, 60}},
	{"to_date(to_char(d, '%Y-%m-%d')) = d", []int64{10, 20, 30, 50, 60}},
	{"date_part('hour', to_timestamp(i64)) = 0", []int64{10, 20, 30, 40, 50, 60}},
	{"to_char(to_timestamp(i64), '%S') = '10'", []int64{10}},
	{"make_time(1, 2, 3) < to_time('01:02:04')", nil}, // ERR Invalid user input: Error during planning: Cannot infer common argument type for comparison operation Time32(s) < Time64
	{"to_time(ts) = to_time('12:00:00')", []int64{20}},
}

// intervalCases are INTERVAL texts and pylance's MonthDayNano values
// (coalesce(interval '…') projected with pylance 14.0.2), ok false where
// pylance refuses the text.
var intervalCases = []struct {
	text         string
	months, days int32
	nanos        int64
	ok           bool
}{
	{"1 day", 0, 1, 0, true},
	{"1", 0, 0, 1000000000, true},
	{"1.5", 0, 0, 1500000000, true},
	{"-1", 0, 0, -1000000000, true},
	{"1 DAY", 0, 1, 0, true},
	{"1 hour", 0, 0, 3600000000000, true},
	{"1 HOUR", 0, 0, 3600000000000, true},
	{"1 month", 1, 0, 0, true},
	{"1 year", 12, 0, 0, true},
	{"1 minute", 0, 0, 60000000000, true},
	{"1 second", 0, 0, 1000000000, true},
	{"1 week", 0, 7, 0, true},
	{"1 millisecond", 0, 0, 1000000, true},
	{"2 hours", 0, 0, 7200000000000, true},
	{"1 month 2 days", 1, 2, 0, true},
	{"30 minutes", 0, 0, 1800000000000, true},
	{"1.5 days", 0, 1, 43200000000000, true},
	{"1.5 months", 1, 15, 0, true},
	{"1.5 years", 18, 0, 0, true},
	{"0.5 weeks", 0, 0, 302400000000000, true},
	{"-1 day", 0, -1, 0, true},
	{"1 day -2 hours", 0, 1, -7200000000000, true},
	{"1d", 0, 1, 0, true},
	{"1h30m", 0, 0, 0, false},
	{"1 h 30 m", 0, 0, 5400000000000, true},
	{"1 day 1 day", 0, 0, 0, false},
	{"1 day 1 days", 0, 0, 0, false},
	{"1 foo", 0, 0, 0, false},
	{" 1 day", 0, 0, 0, false},
	{"1  day", 0, 0, 0, false},
	{"1 DAYS", 0, 1, 0, true},
	{"1 Nanosecond", 0, 0, 1, true},
	{"1 ns", 0, 0, 0, false},
	{"1 us", 0, 0, 1000, true},
	{"1 ms", 0, 0, 1000000, true},
	{"1 mon", 1, 0, 0, true},
	{"1 y", 12, 0, 0, true},
	{"1 c", 1200, 0, 0, true},
	{"1 dec", 120, 0, 0, true},
	{"1 century", 1200, 0, 0, true},
	{"3 decades", 360, 0, 0, true},
	{"2.5 centuries", 3000, 0, 0, true},
	{"2.5 decades", 300, 0, 0, true},
	{".5 day", 0, 0, 43200000000000, true},
	{"-.5 day", 0, 0, -43200000000000, true},
	{"1. day", 0, 0, 0, false},
	{"1.0000000000000001 day", 0, 0, 0, false},
	{"1.000000000000001 day", 0, 1, 0, true},
	{"99999999999 days", 0, 0, 0, false},
	{"2147483647 days", 0, 2147483647, 0, true},
	{"2147483648 days", 0, 0, 0, false},
	{"2147483647 days 1 week", 0, 0, 0, false},
	{"9999999999 hours", 0, 0, 0, false},
	{"2562047 hours", 0, 0, 9223369200000000000, true},
	{"2562048 hours", 0, 0, 0, false},
	{"1 day 2 hours 3 minutes 4 seconds 5 milliseconds 6 microseconds 7 nanoseconds", 0, 1, 7384005006007, true},
	{"1 year 2 months 3 weeks", 14, 21, 0, true},
	{"1-2", 0, 0, 0, false},
	{"P1D", 0, 0, 0, false},
	{"01:02:03", 0, 0, 0, false},
	{"1 day 01:02:03", 0, 0, 0, false},
	{"--1 day", 0, 0, 0, false},
	{"1-- day", 0, 0, 0, false},
	{"1- day", 0, 0, 0, false},
	{"-1.-5 day", 0, 0, 0, false},
	{"+1 day", 0, 0, 0, false},
	{"1e2 day", 0, 0, 0, false},
	{"1 day ", 0, 0, 0, false},
	{"1.5 hours", 0, 0, 5400000000000, true},
	{"0.1 seconds", 0, 0, 100000000, true},
	{"1.123456789123 seconds", 0, 0, 1123456789, true},
	{"1.999999999999999 nanoseconds", 0, 0, 1, true},
	{"-1.5 months", -1, -15, 0, true},
	{"-0.5 day", 0, 0, -43200000000000, true},
	{"-1.5 years", -18, 0, 0, true},
	{"1.7 months", 1, 21, 0, true},
	{"1 QUARTER", 0, 0, 0, false},
	{"1 MILLENNIUM", 0, 0, 0, false},
	{"1 DECADE", 120, 0, 0, true},
	{"1 CENTURY", 1200, 0, 0, true},
	{"1 quarter", 0, 0, 0, false},
	{"1 days", 0, 1, 0, true},
	{"1 day DAY", 0, 0, 0, false},
	{"1 microsecond", 0, 0, 1000, true},
	{"1 nanosecond", 0, 0, 1, true},
	{"1.5 hour", 0, 0, 5400000000000, true},
	{"-1 hour", 0, 0, -3600000000000, true},
	{"1 day HOUR", 0, 0, 0, false},
	{"1\tday", 0, 1, 0, true},
	{"1 yrs", 12, 0, 0, true},
	{"1 hrs", 0, 0, 3600000000000, true},
	{"1 mins", 0, 0, 60000000000, true},
	{"1 secs", 0, 0, 1000000000, true},
	{"1 msecs", 0, 0, 1000000, true},
	{"1 usecs", 0, 0, 1000, true},
	{"1 mseconds", 0, 0, 1000000, true},
	{"1 useconds", 0, 0, 1000, true},
	{"1 msec", 0, 0, 1000000, true},
	{"1 weeks", 0, 7, 0, true},
	{"1 w", 0, 7, 0, true},
	{"1 cent", 1200, 0, 0, true},
	{"1 cents", 1200, 0, 0, true},
	{"1 decs", 120, 0, 0, true},
	{"178956970 years", 2147483640, 0, 0, true},
	{"178956971 years", 0, 0, 0, false},
	{"-178956970 years", -2147483640, 0, 0, true},
	{"1 year 2147483640 months", 0, 0, 0, false},
	{"-0 days", 0, 0, 0, true},
	{"0.000000001 seconds", 0, 0, 1, true},
	{"1.5 1.5 days", 0, 0, 0, false},
	{"1 day 2", 0, 1, 2000000000, true},
	{"1 2", 0, 0, 0, false},
	{"5 min 3", 0, 0, 303000000000, true},
	{"\u0133 day", 0, 0, 0, false},
	{"1 DAY", 0, 1, 0, true},
	{"1 Day", 0, 1, 0, true},
	{"1.5e", 0, 0, 0, false},
	{".", 0, 0, 0, false},
	{"-", 0, 0, 0, false},
	{"-.", 0, 0, 0, false},
	{".5", 0, 0, 500000000, true},
	{"5.", 0, 0, 0, false},
}
