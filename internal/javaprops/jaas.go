package javaprops

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JAASEntry is the one login module of a client's sasl.jaas.config, e.g.
//
//	org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="s3cret";
type JAASEntry struct {
	// Module is the login module's class name.
	Module string
	// Flag is the control flag in lower case: required, requisite,
	// sufficient or optional.
	Flag string
	// Options are the module's options; a key given twice keeps its last
	// value.
	Options map[string]string
}

// knownOptions are the option names of the login modules Kafka's clients
// use, the only words of a JAAS text an error may quote: in a misquoted
// value (username="alice password="s3cret";) any other word can be part
// of a secret.
var knownOptions = map[string]bool{
	"username": true, "password": true, "tokenauth": true, "clientId": true, "clientSecret": true, "scope": true,
	"serviceName": true, "principal": true, "keyTab": true, "useKeyTab": true, "storeKey": true, "useTicketCache": true,
	"debug": true, "unsecuredLoginStringClaim_sub": true,
}

// optionName names the index-th option (from 1) of an entry in an error:
// its name when it is a known option, else its position.
func optionName(key string, index int) string {
	if knownOptions[key] {
		return strconv.Quote(key)
	}
	return fmt.Sprintf("%d (name not shown: may be part of a value)", index)
}

// ParseJAAS reads sasl.jaas.config with the rules of Kafka's JaasConfig,
// which uses java.io.StreamTokenizer: words, "double" or 'single' quoted
// strings with backslash escapes, '=' and ';' as punctuation, and //, /* */
// and a lone / as comments. A client's value must hold exactly one login
// module. Errors quote no part of the text but the names of known options
// (knownOptions): a value that lost a quote turns its neighbours, and its
// own words, into option names.
func ParseJAAS(s string) (JAASEntry, error) {
	tz := jaasTokenizer{in: []rune(s)}
	var entries []JAASEntry
	for {
		t := tz.next()
		if t.kind == tokEOF {
			break
		}
		if t.kind != tokWord {
			return JAASEntry{}, errors.New("expected a login module class name")
		}
		e := JAASEntry{Module: t.text, Options: map[string]string{}}
		t = tz.next()
		if t.kind == tokEOF {
			return JAASEntry{}, errors.New("login module control flag not specified")
		}
		switch flag := strings.ToLower(t.text); {
		case t.kind == tokWord && (flag == "required" || flag == "requisite" || flag == "sufficient" || flag == "optional"):
			e.Flag = flag
		default:
			return JAASEntry{}, errors.New("invalid login module control flag (want required, requisite, sufficient or optional)")
		}
		t, err := tz.options(e.Options)
		if err != nil {
			return JAASEntry{}, err
		}
		if t.kind != tokPunct || t.text != ";" {
			return JAASEntry{}, errors.New("login module entry not terminated by ';'")
		}
		entries = append(entries, e)
	}
	switch len(entries) {
	case 0:
		return JAASEntry{}, errors.New("login module not specified")
	case 1:
		return entries[0], nil
	}
	return JAASEntry{}, fmt.Errorf("holds %d login modules, a client needs exactly 1", len(entries))
}

// options reads a login module's key=value options into opts, up to the
// ';' or the end of the text, and returns the token it stopped at.
func (tz *jaasTokenizer) options(opts map[string]string) (token, error) {
	for index := 1; ; index++ {
		t := tz.next()
		if t.kind == tokEOF || t.kind == tokPunct && t.text == ";" {
			return t, nil
		}
		if t.kind != tokWord {
			return t, errors.New("expected an option name or ';'")
		}
		key := t.text
		if eq := tz.next(); eq.kind != tokPunct || eq.text != "=" {
			return t, fmt.Errorf("value not specified for option %s", optionName(key, index))
		}
		v := tz.next()
		switch v.kind {
		case tokWord, tokQuoted:
		case tokNumber:
			return t, fmt.Errorf("value of option %s must be quoted", optionName(key, index))
		default:
			return t, fmt.Errorf("value not specified for option %s", optionName(key, index))
		}
		opts[key] = v.text
	}
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokQuoted
	tokNumber
	tokPunct
)

type token struct {
	kind tokKind
	text string
}

type jaasTokenizer struct {
	in  []rune
	off int
}

func isWordStart(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$' || r >= 0xA0
}

func isWordPart(r rune) bool {
	return isWordStart(r) || r >= '0' && r <= '9' || r == '.' || r == '-'
}

func (tz *jaasTokenizer) next() token {
	for tz.off < len(tz.in) {
		c := tz.in[tz.off]
		switch {
		case c <= ' ':
			tz.off++
		case c == '/':
			if tz.off+1 < len(tz.in) && tz.in[tz.off+1] == '*' {
				tz.off += 2
				for tz.off < len(tz.in) && (tz.in[tz.off] != '*' || tz.off+1 >= len(tz.in) || tz.in[tz.off+1] != '/') {
					tz.off++
				}
				tz.off = min(tz.off+2, len(tz.in))
				continue
			}
			// "//" and, as in StreamTokenizer, a lone '/' comment out the
			// rest of the line.
			for tz.off < len(tz.in) && tz.in[tz.off] != '\n' && tz.in[tz.off] != '\r' {
				tz.off++
			}
		case c == '"' || c == '\'':
			tz.off++
			return token{kind: tokQuoted, text: tz.quoted(c)}
		case isWordStart(c):
			start := tz.off
			for tz.off < len(tz.in) && isWordPart(tz.in[tz.off]) {
				tz.off++
			}
			return token{kind: tokWord, text: string(tz.in[start:tz.off])}
		case c >= '0' && c <= '9' || c == '.' || c == '-':
			start := tz.off
			for tz.off < len(tz.in) && isWordPart(tz.in[tz.off]) {
				tz.off++
			}
			return token{kind: tokNumber, text: string(tz.in[start:tz.off])}
		default:
			tz.off++
			return token{kind: tokPunct, text: string(c)}
		}
	}
	return token{kind: tokEOF}
}

// quotedEscapes are the characters StreamTokenizer's letter escapes stand
// for.
var quotedEscapes = map[rune]rune{'a': 7, 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// quoted reads a quoted string after its opening quote q. Like
// StreamTokenizer, it ends at the closing quote or at the end of the line.
func (tz *jaasTokenizer) quoted(q rune) string {
	var b strings.Builder
	for tz.off < len(tz.in) {
		c := tz.in[tz.off]
		if c == q {
			tz.off++
			return b.String()
		}
		if c == '\n' || c == '\r' {
			return b.String()
		}
		tz.off++
		if c != '\\' || tz.off >= len(tz.in) {
			b.WriteRune(c)
			continue
		}
		c = tz.in[tz.off]
		tz.off++
		c = cmp.Or(quotedEscapes[c], c)
		if c >= '0' && c <= '7' {
			// Octal escape: up to three digits, at most \377.
			v, max := c-'0', 2
			if c > '3' {
				max = 1
			}
			for ; max > 0 && tz.off < len(tz.in) && tz.in[tz.off] >= '0' && tz.in[tz.off] <= '7'; max-- {
				v = v*8 + tz.in[tz.off] - '0'
				tz.off++
			}
			c = v
		}
		b.WriteRune(c)
	}
	return b.String()
}
