package expr

// stringFuncs are the string functions (lower, upper, starts_with, …).
var stringFuncs = map[string]funcSpec{}
