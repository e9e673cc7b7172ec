package lanceio_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/io/lanceiotest"
)

// openLocal writes data to a temporary file and opens it with cfg.
func openLocal(t *testing.T, data []byte, cfg lanceio.Config) (lanceio.Object, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := lanceio.Open(context.Background(), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return o, path
}

func TestLocalViewsCanBeTurnedOff(t *testing.T) {
	o, _ := openLocal(t, lanceiotest.Data(1, 10_000), lanceio.Config{NoMmap: true})
	v, ok := o.(lanceio.Viewer)
	if !ok {
		t.Fatal("local object lends no views")
	}
	if _, _, err := v.View(context.Background(), 0, 100); !errors.Is(err, lanceio.ErrUnsupported) {
		t.Fatalf("View with NoMmap = %v, want ErrUnsupported", err)
	}
}

func TestLocalViewsCountAsReads(t *testing.T) {
	stats := lanceio.NewStats()
	o, _ := openLocal(t, lanceiotest.Data(2, 10_000), lanceio.Config{Stats: stats})
	before := stats.Snapshot()
	_, release, err := o.(lanceio.Viewer).View(context.Background(), 10, 5000)
	if err != nil {
		t.Fatal(err)
	}
	release()
	after := stats.Snapshot()
	if after.Requests-before.Requests != 1 || after.Bytes-before.Bytes != 5000 {
		t.Fatalf("a view of 5000 bytes counted %d requests, %d bytes", after.Requests-before.Requests, after.Bytes-before.Bytes)
	}
}

// TestViewOfShrunkFileFaultsIntoAnError reads a view of a file truncated
// after mapping: the fault becomes a panic under SetPanicOnFault, which
// ViewFault turns into ErrShortRead.
func TestViewOfShrunkFileFaultsIntoAnError(t *testing.T) {
	o, path := openLocal(t, lanceiotest.Data(3, 1<<20), lanceio.Config{})
	b, release, err := o.(lanceio.Viewer).View(context.Background(), 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	v := o.(lanceio.Viewer)
	_, err = touch(v, b[512<<10:])
	if !errors.Is(err, lanceio.ErrShortRead) {
		t.Fatalf("reading a lost page = %v, want ErrShortRead", err)
	}
	if v.ViewFault("not a fault") != nil {
		t.Fatal("ViewFault took a plain panic value for a fault")
	}
}

// TestViewFaultOfWholeFileIsNotAnError writes into a read-only view of
// a file that did not shrink: that fault is a bug in the caller, so
// ViewFault must not turn it into an error.
func TestViewFaultOfWholeFileIsNotAnError(t *testing.T) {
	o, _ := openLocal(t, lanceiotest.Data(3, 1<<16), lanceio.Config{})
	v := o.(lanceio.Viewer)
	b, release, err := v.View(context.Background(), 0, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	r := faultOn(func() { b[100]++ })
	if r == nil {
		t.Fatal("writing into a read-only view did not fault")
	}
	if err := v.ViewFault(r); err != nil {
		t.Fatalf("ViewFault(write into a whole file's map) = %v, want nil", err)
	}
	if err := v.ViewFault(fakeFault(1)); err != nil {
		t.Fatalf("ViewFault(fault outside the map) = %v, want nil", err)
	}
}

// fakeFault is a panic value shaped like a runtime memory fault.
type fakeFault uintptr

func (f fakeFault) Addr() uintptr { return uintptr(f) }

// faultOn runs f under SetPanicOnFault and returns what it panicked with.
func faultOn(f func()) (r any) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { r = recover() }()
	f()
	return nil
}

// touch sums every byte of b, returning a memory fault of v's as an error.
func touch(v lanceio.Viewer, b []byte) (sum byte, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if err = v.ViewFault(r); err == nil {
				panic(r)
			}
		}
	}()
	for _, c := range b {
		sum += c
	}
	return sum, nil
}
