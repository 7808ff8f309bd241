package admin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/twmb/franz-go/pkg/kgo"
)

// boundedDecompressor is kgo's Decompressor for the record batches Fetch
// reads, with every codec's output bounded: kgo bounds its own only inside
// a consuming client, and a broker's batch may claim any size. It is safe
// for concurrent use (zstd's DecodeAll is).
type boundedDecompressor struct {
	max  int
	zstd *zstd.Decoder
	// The gzip and lz4 readers are pooled: making one allocates its
	// window, and a Fetch may hold thousands of batches.
	gzip, lz4 sync.Pool
}

func newBoundedDecompressor(max int) *boundedDecompressor {
	d, _ := zstd.NewReader(nil, zstd.WithDecoderLowmem(true), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(max)))
	return &boundedDecompressor{max: max, zstd: d}
}

// errTooLarge is a batch that decompresses to more than the bound.
var errTooLarge = errors.New("a record batch decompresses to more than the bound")

func (d *boundedDecompressor) Decompress(src []byte, codec kgo.CompressionCodecType) ([]byte, error) {
	return d.decompressTo(nil, src, codec)
}

// decompressTo is Decompress into dst's room (the result may be dst's
// array, reused): a Fetch reads hundreds of first batches whose records
// are read once, then dropped.
func (d *boundedDecompressor) decompressTo(dst, src []byte, codec kgo.CompressionCodecType) ([]byte, error) {
	switch codec {
	case kgo.CodecNone:
		return src, nil
	case kgo.CodecGzip:
		r, _ := d.gzip.Get().(*gzip.Reader)
		var err error
		if r == nil {
			r, err = gzip.NewReader(bytes.NewReader(src))
		} else {
			err = r.Reset(bytes.NewReader(src))
		}
		if err != nil {
			return nil, err
		}
		defer d.gzip.Put(r)
		return d.readAll(dst, r)
	case kgo.CodecLz4:
		r, _ := d.lz4.Get().(*lz4.Reader)
		if r == nil {
			r = lz4.NewReader(nil)
		}
		r.Reset(bytes.NewReader(src))
		defer d.lz4.Put(r)
		return d.readAll(dst, r)
	case kgo.CodecZstd:
		out, err := d.zstd.DecodeAll(src, dst[:0])
		if err != nil {
			if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				return nil, errTooLarge
			}
			return nil, err
		}
		return out, nil
	case kgo.CodecSnappy:
		return d.snappy(dst[:0], src)
	}
	return nil, fmt.Errorf("unknown compression codec %d", codec)
}

// readAll reads r to its end, at most d.max bytes, into dst's room.
func (d *boundedDecompressor) readAll(dst []byte, r io.Reader) ([]byte, error) {
	out := bytes.NewBuffer(dst[:0])
	n, err := out.ReadFrom(io.LimitReader(r, int64(d.max)+1))
	if err != nil {
		return nil, err
	}
	if n > int64(d.max) {
		return nil, errTooLarge
	}
	return out.Bytes(), nil
}

// xerialPrefix starts the framing the Java producer gives snappy: a 16-byte
// header, then blocks of a big-endian length and a raw snappy block.
var xerialPrefix = []byte{130, 83, 78, 65, 80, 80, 89, 0}

func (d *boundedDecompressor) snappy(out, src []byte) ([]byte, error) {
	if len(src) <= 16 || !bytes.HasPrefix(src, xerialPrefix) {
		return d.snappyBlock(out, src)
	}
	for rem := src[16:]; len(rem) > 0; {
		if len(rem) < 4 {
			return nil, errors.New("malformed xerial framing")
		}
		size := int(binary.BigEndian.Uint32(rem))
		rem = rem[4:]
		if size < 0 || size > len(rem) {
			return nil, errors.New("malformed xerial framing")
		}
		var err error
		if out, err = d.snappyBlock(out, rem[:size]); err != nil {
			return nil, err
		}
		rem = rem[size:]
	}
	return out, nil
}

// snappyBlock appends the decoding of one raw snappy block to out, within
// the bound, which it checks against the block's own claim before
// allocating.
func (d *boundedDecompressor) snappyBlock(out, block []byte) ([]byte, error) {
	n, err := s2.DecodedLen(block)
	if err != nil {
		return nil, err
	}
	if n > d.max-len(out) {
		return nil, errTooLarge
	}
	if cap(out)-len(out) >= n {
		// Decoded straight into the room after out.
		dec, err := s2.Decode(out[len(out):cap(out)], block)
		if err != nil {
			return nil, err
		}
		return out[:len(out)+len(dec)], nil
	}
	dec, err := s2.Decode(nil, block)
	if err != nil {
		return nil, err
	}
	return append(out, dec...), nil
}
