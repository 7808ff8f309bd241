// Package frames follows Kafka's length-prefixed frames across reads and
// writes of any size: the admin client's connection guard and the --debug
// log read frame headers with it.
package frames

import "encoding/binary"

// Cursor follows the frames of one direction of a connection.
type Cursor struct {
	hdr       [12]byte
	n         int
	remaining int64
}

// Feed consumes p; for each frame whose first hdrLen bytes (at most 12, the
// size included) are complete it calls on with them and the frame's size.
// It returns false at a size too short for the header, after which the
// bytes are no longer frames.
func (c *Cursor) Feed(p []byte, hdrLen int, on func(hdr []byte, size int32)) bool {
	for len(p) > 0 {
		if c.remaining > 0 {
			k := int(min(int64(len(p)), c.remaining))
			p, c.remaining = p[k:], c.remaining-int64(k)
			continue
		}
		k := copy(c.hdr[c.n:hdrLen], p)
		c.n += k
		p = p[k:]
		if c.n < hdrLen {
			return true
		}
		size := int32(binary.BigEndian.Uint32(c.hdr[:4]))
		if size < int32(hdrLen-4) {
			return false
		}
		on(c.hdr[:hdrLen], size)
		c.remaining, c.n = int64(size)-int64(hdrLen-4), 0
	}
	return true
}
