package expr

// listFuncs are the list, struct and map functions (array_has, get_field,
// element_at, …).
var listFuncs = map[string]funcSpec{}
