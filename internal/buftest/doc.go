// Package buftest holds Buffer, a bytes.Buffer that goroutines may write
// while a test reads it: a child process's output, a client's debug log.
// Its single job is that buffer; only tests import it.
package buftest
