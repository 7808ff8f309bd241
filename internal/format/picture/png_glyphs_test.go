package picture

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A label of characters the Go fonts lack (CJK, emoji) is not painted as
// nothing: each character is an outlined box, so that the shape does not
// read as unnamed. Latin, Greek and Cyrillic are the Go fonts' own.
func TestRender_pngPaintsEveryCharacter(t *testing.T) {
	for _, label := range []string{"名前名前名前", "📦🚀", "Заказ-Ωμέγα"} {
		dot := `digraph g { node [fontname="Helvetica", fontsize=11]; a [label="` + label + `", shape=box]; }`
		var buf bytes.Buffer
		require.NoError(t, Render(context.Background(), []byte(dot), PNG, &buf))
		img, _, err := image.Decode(&buf)
		require.NoError(t, err)
		b := img.Bounds()
		dark := func(x, y int) bool {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			return c.R < 128 && c.G < 128 && c.B < 128
		}
		// The box's left and right borders on its middle row, its top
		// and bottom along its left border; inside them, away from the
		// borders, only the label is dark.
		mid := (b.Min.Y + b.Max.Y) / 2
		left, right := -1, -1
		for x := b.Min.X; x < b.Max.X; x++ {
			if dark(x, mid) {
				if left < 0 {
					left = x
				}
				right = x
			}
		}
		top, bottom := -1, -1
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if dark(left+1, y) {
				if top < 0 {
					top = y
				}
				bottom = y
			}
		}
		require.Less(t, left, right, "%q: the box's borders", label)
		require.Less(t, top, bottom, "%q: the box's borders", label)
		inside := 0
		for y := top + 6; y < bottom-6; y++ {
			for x := left + 6; x < right-6; x++ {
				if dark(x, y) {
					inside++
				}
			}
		}
		assert.Greater(t, inside, 50, "%q is painted inside its box", label)
	}
}
