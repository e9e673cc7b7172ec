package lance

import (
	"bytes"
	"io"
)

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
