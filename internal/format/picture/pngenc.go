package picture

// The PNG encoder. image/png takes the whole image at once, tries its five
// row filters on every row and compresses on one goroutine: for a packed
// drawing of 16 million pixels that was a second of CPU on one core and
// the canvas held whole (64 MB). Here an opaque RGB image comes as bands
// of rows, each filtered and compressed on its own (by whichever
// goroutine painted it), and written in order as they are done. A deflate
// stream ended by a sync flush is byte-aligned and not final, so the
// bands' streams concatenate into one zlib stream (as pigz does), closed
// by an empty final block; its Adler-32 is the bands' checksums combined.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"

	"github.com/klauspost/compress/flate"
)

// pngBand is one band of rows, filtered and compressed: a piece of the
// zlib stream's deflate data, the Adler-32 of the rows it holds and
// their length.
type pngBand struct {
	data  []byte
	adler uint32
	n     int64
}

// bandEncoder filters and compresses bands; one per goroutine, reused.
type bandEncoder struct {
	zw  *flate.Writer
	row []byte
}

// encode compresses the rows of img (opaque: RGBA's premultiplied values
// are the colors). The first row is written unfiltered, the others with
// the Up filter (the painting is mostly white, and mostly the row above).
func (e *bandEncoder) encode(img *image.RGBA) (pngBand, error) {
	var out bytes.Buffer
	if e.zw == nil {
		zw, err := flate.NewWriter(&out, flate.BestSpeed)
		if err != nil {
			return pngBand{}, err
		}
		e.zw = zw
	} else {
		e.zw.Reset(&out)
	}
	r := img.Rect
	w := r.Dx()
	if cap(e.row) < 1+3*w {
		e.row = make([]byte, 1+3*w)
	}
	row := e.row[:1+3*w]
	h := adler32.New()
	var n int64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		pix := img.Pix[img.PixOffset(r.Min.X, y):]
		if y == r.Min.Y {
			row[0] = 0
			for x, j := 0, 1; x < w; x, j = x+1, j+3 {
				row[j], row[j+1], row[j+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
			}
		} else {
			up := img.Pix[img.PixOffset(r.Min.X, y-1):]
			row[0] = 2
			for x, j := 0, 1; x < w; x, j = x+1, j+3 {
				row[j], row[j+1], row[j+2] = pix[4*x]-up[4*x], pix[4*x+1]-up[4*x+1], pix[4*x+2]-up[4*x+2]
			}
		}
		h.Write(row)
		n += int64(len(row))
		if _, err := e.zw.Write(row); err != nil {
			return pngBand{}, err
		}
	}
	if err := e.zw.Flush(); err != nil {
		return pngBand{}, err
	}
	return pngBand{data: out.Bytes(), adler: h.Sum32(), n: n}, nil
}

// pngWriter writes a PNG image band by band.
type pngWriter struct {
	w     *bufio.Writer
	adler uint32
	first bool
}

// newPNGWriter writes the signature and the header of an 8-bit RGB image
// of width by height pixels.
func newPNGWriter(w io.Writer, width, height int) *pngWriter {
	p := &pngWriter{w: bufio.NewWriterSize(w, 64<<10), adler: 1, first: true}
	p.w.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits, truecolor; deflate, filter set 0, no interlace
	p.chunk("IHDR", ihdr[:])
	return p
}

// band writes the next band's deflate data as an IDAT chunk, the zlib
// header in front of the first.
func (p *pngWriter) band(b pngBand) {
	data := b.data
	if p.first {
		// CMF: deflate, 32 KB window; FLG: fastest, check bits.
		data = append([]byte{0x78, 0x01}, data...)
		p.first = false
	}
	p.chunk("IDAT", data)
	p.adler = adler32Combine(p.adler, b.adler, b.n)
}

// close ends the zlib stream (an empty final block and the checksum) and
// writes the end chunk.
func (p *pngWriter) close() error {
	var tail bytes.Buffer
	if p.first {
		tail.Write([]byte{0x78, 0x01})
	}
	zw, err := flate.NewWriter(&tail, flate.BestSpeed)
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	tail.Write(binary.BigEndian.AppendUint32(nil, p.adler))
	p.chunk("IDAT", tail.Bytes())
	p.chunk("IEND", nil)
	return p.w.Flush()
}

func (p *pngWriter) chunk(kind string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	p.w.Write(head[:])
	p.w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	p.w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}

// adler32Combine is the Adler-32 of two pieces of data one after the
// other, from their checksums and the second one's length (zlib's
// adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := rem * sum1 % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum2<<16 | sum1
}
