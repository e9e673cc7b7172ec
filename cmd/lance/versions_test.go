package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTagRestoreCleanupCommands walks the version commands as a user
// would: tag a version, restore it, clean up around the tag.
func TestTagRestoreCleanupCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,n%d\n", i, i)
	}
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	for _, s := range []struct {
		args []string
		want string
		fail bool
	}{
		{args: []string{"convert", csvPath, ds, "--dataset"}, want: "version 1: 30 rows"},
		{args: []string{"delete", ds, "--filter", "id < 10"}, want: "version 2"},
		{args: []string{"tag", "create", ds, "v1", "--version", "1"}, want: "tag v1: version 1"},
		{args: []string{"tag", "create", ds, "v1"}, want: "tag already exists", fail: true},
		{args: []string{"tag", "create", ds, "bad..name"}, want: "two consecutive dots", fail: true},
		{args: []string{"tag", "list", ds}, want: "v1\tversion 1"},
		{args: []string{"tag", "list", ds, "--json"}, want: `"v1":{"name":"v1","version":1`},
		{args: []string{"restore", ds, "--tag", "v1"}, want: "restored version 1 as version 3: 30 rows"},
		{args: []string{"count", ds}, want: "30\n"},
		{args: []string{"cleanup", ds, "--older-than", "0"}, want: "tagged version", fail: true},
		{args: []string{"cleanup", ds, "--older-than", "0", "--ignore-tagged"}, want: "removed 1 versions"},
		{args: []string{"restore", ds, "--version", "2"}, want: "no such version", fail: true},
		{args: []string{"tag", "delete", ds, "v1"}, want: "deleted tag v1"},
		{args: []string{"tag", "delete", ds, "v1"}, want: "tag not found", fail: true},
		{args: []string{"cleanup", ds, "--older-than", "0", "--json"}, want: `"old_versions":1`},
		{args: []string{"tag", "list", ds}, want: "no tags"},
	} {
		var out, errb bytes.Buffer
		err := run(ctx, s.args, &out, &errb)
		got := out.String()
		if s.fail {
			if err == nil {
				t.Fatalf("%v succeeded: %s", s.args, got)
			}
			got = err.Error()
		} else if err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(got, s.want) {
			t.Fatalf("%v: %q, want %q", s.args, got, s.want)
		}
	}
}

// TestSchemaCommands drops and alters columns through the CLI.
func TestSchemaCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(csvPath, []byte("id,name,x\n1,a,10\n2,b,20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra, short := filepath.Join(dir, "extra.csv"), filepath.Join(dir, "short.csv")
	if err := os.WriteFile(extra, []byte("more\nm1\nm2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, []byte("less\nl1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	for _, s := range []struct {
		args []string
		want string
		fail bool
	}{
		{args: []string{"convert", csvPath, ds, "--dataset"}, want: "version 1: 2 rows"},
		{args: []string{"drop-columns", ds, "--columns", "x"}, want: "dropped x: version 2"},
		{args: []string{"drop-columns", ds, "--columns", "nope"}, want: "nope does not exist", fail: true},
		{args: []string{"alter-columns", ds, "--rename", "name:label", "--not-null", "id"}, want: "altered 2 columns: version 3"},
		{args: []string{"alter-columns", ds, "--rename", "name"}, want: "want old:new", fail: true},
		{args: []string{"add-columns", ds, "--expr", "twice = id * 2, tag = concat(label, '!')"}, want: "added twice, tag: version 4"},
		{args: []string{"add-columns", ds, "--null", "z:int, w:string"}, want: "added z, w: version 5"},
		{args: []string{"add-columns", ds, "--null", "q:nosuchtype"}, want: "unknown type", fail: true},
		{args: []string{"add-columns", ds, "--expr", "id = 1"}, want: "already exists", fail: true},
		{args: []string{"add-columns", ds, "--from", extra}, want: "added more: version 6"},
		{args: []string{"add-columns", ds, "--from", short}, want: "ended after 1 rows", fail: true},
		{args: []string{"cat", ds, "--format", "csv"}, want: "id,label,twice,tag,z,w,more\n1,a,2,a!,null,null,m1\n2,b,4,b!,null,null,m2\n"},
	} {
		var out, errb bytes.Buffer
		err := run(ctx, s.args, &out, &errb)
		got := out.String()
		if s.fail {
			if err == nil {
				t.Fatalf("%v succeeded: %s", s.args, got)
			}
			got = err.Error()
		} else if err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(got, s.want) {
			t.Fatalf("%v: %q, want %q", s.args, got, s.want)
		}
	}
}
