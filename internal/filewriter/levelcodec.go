package filewriter

import "github.com/lancego/lancego/layouts"

// levelCodec compresses a page's rep or def levels (layouts.LevelEncoder).
type levelCodec = layouts.LevelEncoder
