package lance

// tryFSST returns an FSST codec when Lance would use one. Not implemented
// yet: strings are stored with Variable (see the size table).
func tryFSST(v *values, p encodingParams, bitsOff int) (miniCodec, bool) { return nil, false }
