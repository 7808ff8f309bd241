package diff

import "context"

// Compare is CompareContext without a deadline, for the tests.
func Compare(oldIn, newIn Input) *Comparison {
	c, _ := CompareContext(context.Background(), oldIn, newIn)
	return c
}
