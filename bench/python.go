package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed driver.py
var driverScript []byte

// ErrNoPython means no Python with pylance was found.
var ErrNoPython = errors.New("bench: no python with pylance (set LANCE_PY or create .ci/venv)")

// FindPython returns the Python interpreter to run the peer driver with:
// $LANCE_PY, else .ci/venv/bin/python above or at repoDir.
func FindPython(repoDir string) (string, error) {
	if p := os.Getenv("LANCE_PY"); p != "" {
		return p, nil
	}
	for dir := repoDir; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, ".ci", "venv", "bin", "python")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if filepath.Dir(dir) == dir {
			return "", ErrNoPython
		}
	}
}

// PyOp is one request to the driver (see driver.py for the ops).
type PyOp map[string]any

// Python runs the pylance/pyarrow driver script.
type Python struct {
	Exe string
	// Script is the path of the driver written to disk.
	Script string
	// Log receives the driver's stderr.
	Log io.Writer
}

// NewPython writes the driver script into dir and returns a runner.
func NewPython(exe, dir string, log io.Writer) (*Python, error) {
	p := filepath.Join(dir, "lancego_bench_driver.py")
	if err := os.WriteFile(p, driverScript, 0o644); err != nil {
		return nil, err
	}
	return &Python{Exe: exe, Script: p, Log: log}, nil
}

// Run executes ops in one interpreter and returns one raw JSON result per op.
func (p *Python) Run(ctx context.Context, env []string, ops ...PyOp) ([]json.RawMessage, error) {
	req, err := json.Marshal(map[string]any{"ops": ops})
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, p.Exe, p.Script)
	cmd.Stdin = bytes.NewReader(req)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	cmd.Env = append(os.Environ(), env...)
	runErr := cmd.Run()
	if p.Log != nil && errb.Len() > 0 && runErr != nil {
		p.Log.Write(errb.Bytes())
	}
	if runErr != nil {
		return nil, fmt.Errorf("python driver: %w: %s", runErr, tail(errb.String(), 2000))
	}
	var resp struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		return nil, fmt.Errorf("python driver output: %w", err)
	}
	if len(resp.Results) != len(ops) {
		return nil, fmt.Errorf("python driver: %d results for %d ops", len(resp.Results), len(ops))
	}
	return resp.Results, nil
}

// RunOne executes one op and decodes its result into v.
func (p *Python) RunOne(ctx context.Context, env []string, op PyOp, v any) error {
	res, err := p.Run(ctx, env, op)
	if err != nil {
		return err
	}
	return json.Unmarshal(res[0], v)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// pyIO is what the proxy counted during the timed part of an op.
type pyIO = MarkCounts

// pyScan is the result of the scan and pq_scan ops.
type pyScan map[string]struct {
	Seconds float64 `json:"seconds"`
	Rows    int     `json:"rows"`
	IO      *pyIO   `json:"io"`
}

// pyTimes is the result of the take, pq_take and open ops.
type pyTimes struct {
	Seconds []float64 `json:"seconds"`
	IO      *pyIO     `json:"io"`
	// CPUSeconds is the driver process's CPU during the timed part (take).
	CPUSeconds *float64 `json:"cpu_seconds"`
}

// pyWrite is the result of the write op.
type pyWrite struct {
	Seconds float64   `json:"seconds"`
	Runs    []float64 `json:"runs"`
	Rows    int       `json:"rows"`
	Bytes   int64     `json:"bytes"`
}
