package admin

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/klauspost/compress/s2"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A batch that decompresses past the bound is refused, whatever the codec
// (a decompression bomb: 64 MiB of zeros in a few KiB); one within it
// round-trips, snappy in both the raw and the Java (xerial) framing.
func TestBoundedDecompressor(t *testing.T) {
	small := bytes.Repeat([]byte("kstreams "), 1000)
	bomb := make([]byte, 64<<20)
	d := newBoundedDecompressor(1 << 20)
	for _, codec := range []kgo.CompressionCodec{kgo.GzipCompression(), kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()} {
		comp, err := kgo.DefaultCompressor(codec)
		require.NoError(t, err)
		var buf bytes.Buffer
		z, typ := comp.Compress(&buf, small)
		out, err := d.Decompress(bytes.Clone(z), typ)
		require.NoError(t, err, typ)
		assert.Equal(t, small, out)

		buf.Reset()
		z, typ = comp.Compress(&buf, bomb)
		assert.Less(t, len(z), 8<<20, "the bomb is small")
		_, err = d.Decompress(bytes.Clone(z), typ)
		assert.Error(t, err, "codec %d", typ)
	}
	// xerial framing, as the Java producer writes snappy: blocks of 32
	// KiB; 40 blocks of zeros pass the 1 MiB bound.
	xerial := func(blocks int) ([]byte, []byte) {
		framed := append(append([]byte{}, xerialPrefix...), 0, 0, 0, 1, 0, 0, 0, 1)
		var plain []byte
		for range blocks {
			chunk := make([]byte, 32<<10)
			block := s2.EncodeSnappy(nil, chunk)
			framed = binary.BigEndian.AppendUint32(framed, uint32(len(block)))
			framed = append(framed, block...)
			plain = append(plain, chunk...)
		}
		return framed, plain
	}
	framed, plain := xerial(3)
	out, err := d.Decompress(framed, kgo.CodecSnappy)
	require.NoError(t, err)
	assert.Equal(t, plain, out)
	framed, _ = xerial(40)
	_, err = d.Decompress(framed, kgo.CodecSnappy)
	assert.ErrorIs(t, err, errTooLarge)
	_, err = d.Decompress(framed[:len(framed)-3], kgo.CodecSnappy)
	assert.Error(t, err, "a cut block")
	_, err = d.Decompress([]byte{1, 2, 3}, 7)
	assert.Error(t, err, "an unknown codec")
}

// decompressTo gives what Decompress gives, into a used buffer's room
// when it has enough (its old bytes never show), else into a new one; a
// bomb is refused all the same.
func TestBoundedDecompressor_into(t *testing.T) {
	d := newBoundedDecompressor(1 << 20)
	framedPlain := bytes.Repeat([]byte("xerial "), 3000)
	framed := append(append([]byte{}, xerialPrefix...), 0, 0, 0, 1, 0, 0, 0, 1)
	block := s2.EncodeSnappy(nil, framedPlain)
	framed = append(binary.BigEndian.AppendUint32(framed, uint32(len(block))), block...)
	for _, size := range []int{10, 9000, 30000} {
		plain := bytes.Repeat([]byte("kstreams "), size/9+1)[:size]
		for _, codec := range []kgo.CompressionCodec{kgo.GzipCompression(), kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()} {
			comp, err := kgo.DefaultCompressor(codec)
			require.NoError(t, err)
			var buf bytes.Buffer
			z, typ := comp.Compress(&buf, plain)
			z = bytes.Clone(z)
			for _, room := range []int{0, 16, 64 << 10} {
				dst := bytes.Repeat([]byte{0xAA}, room)
				out, err := d.decompressTo(dst, z, typ)
				require.NoError(t, err, "codec %d", typ)
				assert.Equal(t, plain, out, "codec %d into %d bytes of room", typ, room)
				if room == 64<<10 {
					assert.Same(t, &dst[0], &out[:1][0], "codec %d, %d bytes: decoded into the room", typ, size)
				}
			}
		}
	}
	dst := make([]byte, 0, 64<<10)
	out, err := d.decompressTo(dst, framed, kgo.CodecSnappy)
	require.NoError(t, err)
	assert.Equal(t, framedPlain, out)
	var bombBuf bytes.Buffer
	comp, err := kgo.DefaultCompressor(kgo.ZstdCompression())
	require.NoError(t, err)
	z, typ := comp.Compress(&bombBuf, make([]byte, 4<<20))
	_, err = d.decompressTo(make([]byte, 0, 8<<20), bytes.Clone(z), typ)
	assert.Error(t, err, "the bound holds whatever the room")
}
