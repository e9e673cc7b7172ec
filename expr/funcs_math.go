package expr

// mathFuncs are the numeric and NULL-handling functions (abs, round,
// coalesce, …).
var mathFuncs = map[string]funcSpec{}
