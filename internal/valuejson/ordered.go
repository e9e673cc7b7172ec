package valuejson

// Member is one key/value pair of an OrderedObject.
type Member struct {
	Key   string
	Value any
}

// OrderedObject is a JSON object whose members are written in slice order.
// Duplicate keys are not detected. It is used for struct values, map entries,
// schema fields and the top-level {"num_rows", "columns"} document so that
// encoded JSON keeps Arrow child / schema order.
type OrderedObject []Member

// Get returns the value of the first member named key and whether it exists.
func (o OrderedObject) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// MarshalJSON implements json.Marshaler. Members are written in order and
// strings are not HTML-escaped (encoding/json may still escape them again
// when the object is nested inside a value marshaled with json.Marshal).
func (o OrderedObject) MarshalJSON() ([]byte, error) {
	return appendJSON(nil, o)
}
