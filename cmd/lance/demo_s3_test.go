package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestDemoObjectStore runs the demo's object-store part and checks what it
// prints: every read went through the embedded S3 server (its request
// count is the reader's), the take and the pruned filter read a small
// fraction of the scan's bytes, and the rows are right.
func TestDemoObjectStore(t *testing.T) {
	var out bytes.Buffer
	if err := demoObjectStore(context.Background(), t.TempDir(), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	rows := map[string][]float64{}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		nums := make([]float64, 5)
		ok := true
		for i := range nums {
			cell := f[len(f)-5+i]
			if cell == "-" {
				cell = "-1"
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				ok = false
				break
			}
			nums[i] = v
		}
		if ok {
			rows[strings.Join(f[:len(f)-5], " ")] = nums
		}
	}
	open, scan := rows["open"], rows["scan id, score"]
	take, filter := rows["take rows 449999, 7, 7"], rows["filter id >= 20000 AND id < 20003"]
	if open == nil || scan == nil || take == nil || filter == nil {
		t.Fatalf("missing a step's line in:\n%s", out.String())
	}
	// columns: rows, requests, MB read, round trips, server requests
	if scan[0] != s3DemoRows || take[0] != 3 || filter[0] != 3 {
		t.Errorf("rows: scan %v take %v filter %v", scan[0], take[0], filter[0])
	}
	for name, r := range map[string][]float64{"open": open, "scan": scan, "take": take, "filter": filter} {
		if r[4] < 1 {
			t.Errorf("%s: the server answered no request", name)
		}
		if r[1] != r[4] {
			t.Errorf("%s: reader counted %v requests, server answered %v", name, r[1], r[4])
		}
		if name != "open" && r[3] < 1 {
			t.Errorf("%s: no round trip counted", name)
		}
	}
	if take[2] >= scan[2]/2 || filter[2] >= scan[2]/2 {
		t.Errorf("take (%v MB) and filter (%v MB) should read far less than the scan (%v MB)", take[2], filter[2], scan[2])
	}
}
