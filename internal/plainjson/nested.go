package plainjson

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func compileNested(arr arrow.Array) (appender, error) {
	switch a := arr.(type) {
	case *array.Map:
		return compileMap(a)
	case array.ListLike:
		child, err := compile(a.ListValues())
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			dst = append(dst, '[')
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ',')
				}
				dst = child(dst, int(j))
			}
			return append(dst, ']')
		}, nil
	case *array.Struct:
		return compileStruct(a)
	}
	return nil, unsupported(arr)
}

func compileStruct(a *array.Struct) (appender, error) {
	st := a.DataType().(*arrow.StructType)
	kids := make([]appender, a.NumField())
	keys := make([][]byte, a.NumField())
	for k := range kids {
		var err error
		if kids[k], err = compile(a.Field(k)); err != nil {
			return nil, err
		}
		keys[k] = append(AppendString(nil, st.Field(k).Name), ':')
	}
	return func(dst []byte, i int) []byte {
		dst = append(dst, '{')
		for k, kid := range kids {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, keys[k]...)
			dst = kid(dst, i)
		}
		return append(dst, '}')
	}, nil
}

func compileMap(a *array.Map) (appender, error) {
	key, err := compile(a.Keys())
	if err != nil {
		return nil, err
	}
	val, err := compile(a.Items())
	if err != nil {
		return nil, err
	}
	return func(dst []byte, i int) []byte {
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = key(dst, int(j))
			dst = append(dst, `,"value":`...)
			dst = val(dst, int(j))
			dst = append(dst, '}')
		}
		return append(dst, ']')
	}, nil
}
