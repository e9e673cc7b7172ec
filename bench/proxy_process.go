package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// linkProxy is the latency/bandwidth proxy as the object-store runs use
// it: in this process (Proxy) or in a child process (ProxyProcess).
type linkProxy interface {
	URL() string
	Mark() (MarkCounts, error)
	Close() error
}

// ProxyProcess is a Proxy running in a child process (`lance bench-proxy`),
// so that the benchmark process's CPU time is our reader's alone and the
// proxy's own CPU is reported by its marks. The child exits when its
// standard input closes, so it cannot outlive the benchmark.
type ProxyProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
}

// StartProxyProcess runs `exe bench-proxy` with the proxy's settings and
// waits for the URL it prints.
func StartProxyProcess(exe, upstream string, latency time.Duration, bytesPerSec float64, serverPID int) (*ProxyProcess, error) {
	cmd := exec.Command(exe, "bench-proxy", "--upstream", upstream, "--latency", latency.String(),
		"--bytes-per-sec", strconv.FormatFloat(bytesPerSec, 'f', -1, 64), "--server-pid", strconv.Itoa(serverPID))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		_ = stdin.Close()
		_ = cmd.Wait()
		return nil, fmt.Errorf("bench-proxy did not start (%q): %v", line, err)
	}
	return &ProxyProcess{cmd: cmd, stdin: stdin, url: strings.TrimSpace(line)}, nil
}

// URL is the proxy's base URL.
func (p *ProxyProcess) URL() string { return p.url }

// Mark returns the counts since the previous mark (see MarkPath).
func (p *ProxyProcess) Mark() (MarkCounts, error) {
	var m MarkCounts
	resp, err := http.Get(p.url + MarkPath)
	if err != nil {
		return m, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return m, fmt.Errorf("proxy mark: %s", resp.Status)
	}
	return m, json.NewDecoder(resp.Body).Decode(&m)
}

// Close stops the child and waits for it.
func (p *ProxyProcess) Close() error {
	_ = p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		return <-done
	}
}

// ServeProxyProcess is the body of `lance bench-proxy`: it starts a Proxy
// reporting its own CPU, prints its URL on out, and serves until in ends.
func ServeProxyProcess(upstream string, latency time.Duration, bytesPerSec float64, serverPID int, in io.Reader, out io.Writer) error {
	p, err := StartProxy(upstream, latency, bytesPerSec)
	if err != nil {
		return err
	}
	defer p.Close()
	p.ReportCPU, p.ServerPID = true, serverPID
	if _, err := p.Mark(); err != nil { // start the CPU clocks
		return err
	}
	fmt.Fprintln(out, p.URL())
	_, _ = io.Copy(io.Discard, in)
	return nil
}
