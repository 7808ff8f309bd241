package main

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// seedInput is playground --seed's input: the file it names or, where no
// such file exists, the built-in seed of that name (the docs' pages start
// `playground --seed standbys`, which needs no clone).
type seedInput struct{ localInput }

func (in seedInput) readFile(ctx context.Context, name, path string) (string, error) {
	if builtin, ok := playground.BuiltinSeed(path); ok {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return string(builtin), nil
		}
	}
	return in.localInput.readFile(ctx, name, path)
}
