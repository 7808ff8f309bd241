package resetoffsets

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ParseDateTime reads a --to-datetime value as ISO 8601 does and returns
// its instant. It accepts every value kafka-streams-groups.sh accepts
// (Utils.getDateTime: "yyyy-MM-dd'T'HH:mm:ss.SSS" with an optional zone,
// UTC without one; fields of any digit count; blanks around the value and
// before the zone; text after the zone ignored) and also seconds without a
// fraction, any number of fraction digits, a comma before them and a
// lower-case t or z. Where the Java tool reads a value otherwise, this
// follows ISO 8601: "+0530" is five and a half hours (Java: +05:00, the
// minutes are dropped), ".5" is 500 ms (Java: 5 ms) and ".0005" is 0 ms
// (Java: 5 ms); dates are proleptic Gregorian (Java: Julian before 1582).
func ParseDateTime(s string) (time.Time, error) {
	p := &dtParser{s: strings.TrimSpace(s)}
	year := p.number()
	p.expect('-')
	month := p.number()
	p.expect('-')
	day := p.number()
	if !p.eat('T') && !p.eat('t') {
		return time.Time{}, dateTimeError(s)
	}
	hour := p.number()
	p.expect(':')
	minute := p.number()
	p.expect(':')
	second := p.number()
	nanos := 0
	if p.eat('.') || p.eat(',') {
		digits := p.digits()
		if digits == "" {
			p.fail()
		}
		frac := (digits + "000000000")[:9]
		nanos, _ = strconv.Atoi(frac)
	}
	p.skipBlanks()
	offset := 0
	switch {
	case p.done():
	case p.eat('Z') || p.eat('z'):
	case p.peek() == '+' || p.peek() == '-':
		sign := 1
		if p.next() == '-' {
			sign = -1
		}
		hh := p.fixed(2)
		if hh < 0 || hh > 23 {
			p.fail()
		}
		mm := 0
		// Minutes follow as ":mm" or "mm"; what does not read as minutes
		// is trailing text, ignored as the Java tool ignores it.
		save := p.i
		p.eat(':')
		if m := p.fixed(2); m >= 0 && m < 60 {
			mm = m
		} else {
			p.i = save
		}
		offset = sign * (hh*3600 + mm*60)
	default:
		p.fail()
	}
	if p.err || year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 ||
		day > daysIn(year, time.Month(month)) {
		return time.Time{}, dateTimeError(s)
	}
	return time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.FixedZone("", offset)).UTC(), nil
}

func dateTimeError(s string) error {
	return fmt.Errorf("Invalid --to-datetime '%s': want an ISO 8601 date and time such as 2020-01-01T05:00:00.000, optionally with a zone (Z, +05:30, +0530 or +05; none means UTC)", s)
}

func daysIn(year int, m time.Month) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// dtParser reads a date-time left to right; the first mismatch sets err.
type dtParser struct {
	s   string
	i   int
	err bool
}

func (p *dtParser) fail()      { p.err = true }
func (p *dtParser) done() bool { return p.i >= len(p.s) }
func (p *dtParser) peek() byte { return p.at(p.i) }
func (p *dtParser) next() byte { b := p.peek(); p.i++; return b }
func (p *dtParser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func (p *dtParser) eat(b byte) bool {
	if !p.err && p.peek() == b {
		p.i++
		return true
	}
	return false
}

func (p *dtParser) expect(b byte) {
	if !p.eat(b) {
		p.fail()
	}
}

func (p *dtParser) skipBlanks() {
	for p.peek() == ' ' || p.peek() == '\t' {
		p.i++
	}
}

func (p *dtParser) digits() string {
	start := p.i
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.i++
	}
	return p.s[start:p.i]
}

// number reads one or more digits (the Java tool takes any count).
func (p *dtParser) number() int {
	d := p.digits()
	n, err := strconv.Atoi(d)
	if d == "" || err != nil || len(d) > 9 {
		p.fail()
		return 0
	}
	return n
}

// fixed reads exactly n digits, or returns -1 and reads nothing.
func (p *dtParser) fixed(n int) int {
	if p.i+n > len(p.s) {
		return -1
	}
	v := 0
	for k := 0; k < n; k++ {
		c := p.s[p.i+k]
		if c < '0' || c > '9' {
			return -1
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v
}

// durationPattern is java.time.Duration.parse's grammar: PnDTnHnMn.nS with
// optional signs, case-insensitive, no years or months.
var durationPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$`)
})

// ParseDuration reads a --by-duration value as java.time.Duration.parse
// does and returns it in milliseconds (a fraction below one millisecond is
// dropped). A negative duration points into the future.
func ParseDuration(s string) (int64, error) {
	m := durationPattern().FindStringSubmatch(s)
	if m == nil || strings.EqualFold(m[3], "T") || m[2] == "" && m[4] == "" && m[5] == "" && m[6] == "" {
		return 0, durationError(s)
	}
	total := new(big.Int)
	add := func(v string, unitMs int64) bool {
		if v == "" {
			return true
		}
		n, ok := new(big.Int).SetString(strings.TrimPrefix(v, "+"), 10)
		if !ok {
			return false
		}
		total.Add(total, n.Mul(n, big.NewInt(unitMs)))
		return true
	}
	ok := add(m[2], 86_400_000) && add(m[4], 3_600_000) && add(m[5], 60_000) && add(m[6], 1000)
	if m[7] != "" {
		ms, _ := strconv.Atoi((m[7] + "000")[:3])
		if strings.HasPrefix(m[6], "-") {
			ms = -ms
		}
		total.Add(total, big.NewInt(int64(ms)))
	}
	if m[1] == "-" {
		total.Neg(total)
	}
	if !ok || !total.IsInt64() {
		return 0, durationError(s)
	}
	return total.Int64(), nil
}

func durationError(s string) error {
	return fmt.Errorf("Invalid --by-duration '%s': Text cannot be parsed to a Duration (want PnDTnHnMnS, e.g. PT1H30M or P1D)", s)
}
