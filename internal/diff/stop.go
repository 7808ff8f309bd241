package diff

import "context"

// A comparison of two large topologies is CPU-bound for a while, and a
// signal must end it within a fraction of a second: every loop whose
// length grows with the input calls stopper.tick, which looks at the
// context every stopEvery calls and, once it is done, unwinds the whole
// comparison (Compare's caller gets the context's cause). A panic is the
// one way out of the nested loops that does not thread an error through
// every pass; it never leaves the package.
const stopEvery = 1 << 10

type stopper struct {
	ctx   context.Context
	ticks int
}

// stopped is the panic value of a comparison whose context ended.
type stopped struct{ cause error }

func (s *stopper) tick() {
	s.ticks++
	if s.ticks%stopEvery == 0 && s.ctx.Err() != nil {
		panic(stopped{context.Cause(s.ctx)})
	}
}
