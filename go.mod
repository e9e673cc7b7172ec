module github.com/lancego/lancego

go 1.26.0

require google.golang.org/protobuf v1.36.12

require (
	github.com/apache/arrow-go/v18 v18.8.0 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	gocloud.dev v0.49.0 // indirect
)
