package admin

import (
	"errors"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReachability(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	noHost := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "kafak", IsNotFound: true}}
	timeout := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("i/o timeout")}
	seeds := []string{"a:1", "b:2"}
	fail := func(r *reachability, addr string, err error, n int) {
		for range n {
			r.dialed(addr, err)
		}
	}
	t.Run("every seed failed often enough", func(t *testing.T) {
		r := newReachability(seeds)
		fail(r, "a:1", refused, unreachableTries)
		assert.Nil(t, r.unreachable(refused), "b:2 was not tried")
		fail(r, "b:2", noHost, unreachableTries-1)
		assert.Nil(t, r.unreachable(refused), "b:2 failed too few times")
		fail(r, "b:2", noHost, 1)
		ue := r.unreachable(refused)
		if assert.NotNil(t, ue) {
			assert.Equal(t, "no bootstrap server could be reached: a:1 (connection refused), b:2 (no such host); check the host and port of --bootstrap-server and that the broker is running", ue.Error())
		}
		assert.Nil(t, r.unreachable(timeout), "only a quick failure ends the retries")
	})
	t.Run("a slow failure starts the count again", func(t *testing.T) {
		r := newReachability(seeds[:1])
		fail(r, "a:1", refused, unreachableTries-1)
		fail(r, "a:1", timeout, 1)
		fail(r, "a:1", refused, unreachableTries-1)
		assert.Nil(t, r.unreachable(refused))
	})
	t.Run("a cluster that connected once is retried", func(t *testing.T) {
		r := newReachability(seeds[:1])
		r.dialed("a:1", nil)
		fail(r, "a:1", refused, 2*unreachableTries)
		assert.Nil(t, r.unreachable(refused))
	})
	t.Run("a broker that is not a seed does not count", func(t *testing.T) {
		r := newReachability(seeds[:1])
		fail(r, "c:3", refused, 2*unreachableTries)
		assert.Nil(t, r.unreachable(refused))
	})
}
