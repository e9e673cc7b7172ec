package expr

import "strings"

// keywords are the words QuoteIdent never leaves bare, because the
// parser would read them as syntax.
var keywords = map[string]bool{
	"and": true, "or": true, "not": true, "null": true, "true": true, "false": true, "is": true,
	"in": true, "between": true, "like": true, "ilike": true, "escape": true, "cast": true,
	"try_cast": true, "as": true, "distinct": true, "from": true, "interval": true, "date": true,
	"timestamp": true, "datetime": true, "decimal": true, "case": true, "when": true, "then": true,
	"else": true, "end": true, "select": true, "exists": true, "similar": true, "to": true,
	"any": true, "all": true, "unknown": true, "array": true, "current_date": true, "current_time": true,
	"current_timestamp": true, "localtime": true, "localtimestamp": true, "user": true, "current_user": true,
	"session_user": true, "current_catalog": true, "safe_cast": true, "trim": true,
}

// IsKeyword reports whether name (any case) is a word of the dialect's
// syntax that QuoteIdent quotes.
func IsKeyword(name string) bool { return keywords[strings.ToLower(name)] }
