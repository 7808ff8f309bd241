package admintest

import (
	"net"
	"syscall"
	"testing"
)

// NeverAccepts returns the host:port of a listening socket whose accept
// queue is full and never drained, so that a TCP connect to it never
// completes: Linux drops the SYN of a listener whose queue is full, and the
// client waits as for a host that does not answer (a firewall that drops,
// a wrong address). The queue holds backlog+1 connections: the listener is
// made with a backlog of 0 and one connection fills it.
func NeverAccepts(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("admintest: socket: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("admintest: bind: %v", err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatalf("admintest: listen: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("admintest: getsockname: %v", err)
	}
	addr := (&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: sa.(*syscall.SockaddrInet4).Port}).String()
	filler, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("admintest: fill the accept queue of %s: %v", addr, err)
	}
	t.Cleanup(func() { _ = filler.Close() })
	return addr
}
