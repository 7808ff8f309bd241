package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Values come as strings from flags and the environment and typed from YAML.

func castInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case uint64:
		return int64(x), nil
	case float64:
		if x != float64(int64(x)) {
			return 0, fmt.Errorf("not a whole number: %v", x)
		}
		return int64(x), nil
	case string:
		return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	}
	return 0, fmt.Errorf("not a number: %v", v)
}

func castBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		return strconv.ParseBool(strings.TrimSpace(x))
	}
	return false, fmt.Errorf("not a boolean: %v", v)
}
