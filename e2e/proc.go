//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// JavaBin is the java executable: $E2E_JAVA, else $JAVA_HOME/bin/java, else java from PATH.
func JavaBin() string {
	if j := os.Getenv("E2E_JAVA"); j != "" {
		return j
	}
	if h := os.Getenv("JAVA_HOME"); h != "" {
		return filepath.Join(h, "bin", "java")
	}
	return "java"
}

// Process is a background JVM started by the harness. It is stopped by PID only.
type Process struct {
	Name    string
	PID     int
	LogPath string

	cmd     *exec.Cmd
	logFile *os.File
	done    chan struct{}
	waitErr error
	once    sync.Once
}

// StartJava starts `java <jvmArgs> -cp <cp> <mainClass> <args>` in the background with stdout and
// stderr appended to logPath.
func StartJava(name, logPath, cp string, jvmArgs []string, mainClass string, args ...string) (*Process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	all := append([]string{}, jvmArgs...)
	all = append(all, "-cp", cp, mainClass)
	all = append(all, args...)
	cmd := exec.Command(JavaBin(), all...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Stdin = nil
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("e2e: starting %s: %w", name, err)
	}
	p := &Process{Name: name, PID: cmd.Process.Pid, LogPath: logPath, cmd: cmd, logFile: f, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	logf("started %s pid=%d log=%s", name, p.PID, logPath)
	return p, nil
}

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Stop sends SIGTERM to the PID, waits up to grace, then SIGKILLs it. Safe to call twice.
func (p *Process) Stop(grace time.Duration) error {
	var err error
	p.once.Do(func() {
		if p.Exited() {
			return
		}
		start := time.Now()
		_ = syscall.Kill(p.PID, syscall.SIGTERM)
		select {
		case <-p.done:
			logf("stopped %s pid=%d (SIGTERM, %s)", p.Name, p.PID, time.Since(start).Round(time.Millisecond))
			return
		case <-time.After(grace):
		}
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
		select {
		case <-p.done:
			logf("killed %s pid=%d (SIGKILL after %s)", p.Name, p.PID, grace)
		case <-time.After(10 * time.Second):
			err = fmt.Errorf("e2e: %s pid=%d did not exit after SIGKILL", p.Name, p.PID)
		}
	})
	return err
}

// Wait waits for the process to exit on its own.
func (p *Process) Wait(timeout time.Duration) error {
	select {
	case <-p.done:
		var ee *exec.ExitError
		if errors.As(p.waitErr, &ee) {
			return fmt.Errorf("%s exited: %s", p.Name, ee.ProcessState)
		}
		return p.waitErr
	case <-time.After(timeout):
		return fmt.Errorf("%s pid=%d still running after %s", p.Name, p.PID, timeout)
	}
}

// FreePort returns a currently free TCP port on 127.0.0.1.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
