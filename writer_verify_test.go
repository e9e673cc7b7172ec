package lance

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// lanceBatch collects files for one real-Lance verification run
// (testdata/pylance/verify_many.py: one Python process for every file).
type lanceBatch struct {
	items [][3]string // name, file, expected.json
	// wantErr holds, by name, the error real Lance is expected to give
	// (a shape pylance 14.0.2 writes but cannot read back itself).
	wantErr map[string]string
}

// addFailing queues file, which real Lance is expected to refuse with an
// error containing wantErr.
func (b *lanceBatch) addFailing(name, file, exp, wantErr string) {
	b.add(name, file, exp)
	if b.wantErr == nil {
		b.wantErr = map[string]string{}
	}
	b.wantErr[name] = wantErr
}

// add queues file for checking against exp under name.
func (b *lanceBatch) add(name, file, exp string) {
	b.items = append(b.items, [3]string{name, file, exp})
}

// run verifies every queued file with real Lance and reports each as a
// subtest "lance/<name>".
func (b *lanceBatch) run(t *testing.T, py string) {
	if py == "" || len(b.items) == 0 {
		return
	}
	var in bytes.Buffer
	for _, it := range b.items {
		in.WriteString(it[1] + "\t" + it[2] + "\n")
	}
	cmd := exec.Command(py, "testdata/pylance/verify_many.py")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("verify_many.py: %v", err)
	}
	res := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		status, rest, _ := strings.Cut(sc.Text(), " ")
		file, msg, _ := strings.Cut(rest, " ")
		res[file] = status + " " + msg
	}
	for _, it := range b.items {
		t.Run("lance/"+it[0], func(t *testing.T) {
			r, ok := res[it[1]]
			if !ok {
				t.Fatalf("no result from verify_many.py")
			}
			if want := b.wantErr[it[0]]; want != "" {
				if strings.HasPrefix(r, "OK ") || !strings.Contains(r, want) {
					t.Fatalf("real Lance: %s, want its known error %q", r, want)
				}
				return
			}
			if !strings.HasPrefix(r, "OK ") {
				t.Fatalf("real Lance: %s", r)
			}
		})
	}
}
