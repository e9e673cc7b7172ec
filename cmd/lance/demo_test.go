package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDemoRuns runs the README's first command end to end: it writes a
// file, reads it back by scan, take and filter, and reads the embedded
// real Lance files.
func TestDemoRuns(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"demo"}, &out, &out); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		"version 2.2, 50000 rows",
		`{"id":49999,"label":"item-149","score":99.9,"tags":["plum","red","green"]}`,
		"server requests",
		"20002  item-62",
		`"zones_pruned":6`,
		"map_utf8_int32",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
}
