package picture

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/adler32"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The banded encoder writes a PNG that image/png decodes to the painted
// pixels, and a zlib stream whose checksum (read to its end) holds.
func TestPaintBands_decodesExactly(t *testing.T) {
	const width, height = 37, 203
	rng := rand.New(rand.NewPCG(1, 2))
	want := image.NewRGBA(image.Rect(0, 0, width, height))
	for i := range want.Pix {
		if i%4 == 3 {
			want.Pix[i] = 0xff
		} else if rng.IntN(3) > 0 { // runs of white, as a drawing has
			want.Pix[i] = byte(rng.IntN(256))
		} else {
			want.Pix[i] = 0xff
		}
	}
	for _, starts := range [][]int{{0}, {0, 1, 2, 90, 150, 202}, {0, 50, 100, 150, 200}} {
		var buf bytes.Buffer
		require.NoError(t, paintBands(context.Background(), &buf, width, height, starts, 1, func(i int, p *painter) error {
			img := p.cv.img
			for y := range img.Rect.Dy() {
				copy(img.Pix[y*img.Stride:(y+1)*img.Stride], want.Pix[(starts[i]+y)*want.Stride:])
			}
			return nil
		}))
		got, err := png.Decode(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		require.Equal(t, want.Rect, got.Bounds())
		differ := 0
		for y := range height {
			for x := range width {
				r, g, b, _ := got.At(x, y).RGBA()
				w := want.RGBAAt(x, y)
				if uint8(r>>8) != w.R || uint8(g>>8) != w.G || uint8(b>>8) != w.B {
					differ++
				}
			}
		}
		assert.Zero(t, differ, "bands %v", starts)
		// The IDAT chunks' zlib stream, read to its end, checks its
		// Adler-32.
		var z bytes.Buffer
		rest := buf.Bytes()[8:]
		for len(rest) > 0 {
			n := binary.BigEndian.Uint32(rest)
			if string(rest[4:8]) == "IDAT" {
				z.Write(rest[8 : 8+n])
			}
			rest = rest[12+n:]
		}
		zr, err := zlib.NewReader(&z)
		require.NoError(t, err)
		raw, err := io.ReadAll(zr)
		require.NoError(t, err, "bands %v", starts)
		assert.Len(t, raw, height*(1+3*width))
	}
}

func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5552, 65521, 65522, 200_000} {
		a := make([]byte, rng.IntN(100_000))
		b := make([]byte, n)
		for i := range a {
			a[i] = 0xff
		}
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		want := adler32.Checksum(append(bytes.Clone(a), b...))
		assert.Equal(t, want, adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b))), "len %d", n)
	}
}
