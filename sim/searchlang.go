package sim

// The entity search query language of actor.entitySearch(query:), as far as New Relic
// documents it (newrelic/docs-website
// src/content/docs/apis/nerdgraph/examples/nerdgraph-entities-api-tutorial.mdx):
//
//	query      = or EOF
//	or         = and { "OR" and }             // OR: simulator extension, see doc.go
//	and        = primary { "AND" primary }
//	primary    = "(" or ")" | comparison
//	comparison = property ( ( "=" | "!=" ) value | [ "NOT" ] "IN" list | "LIKE" value )
//	list       = "(" value { "," value } ")"
//	property   = identifier | `backticked identifier`
//	value      = 'string' | number | true | false
//
// Keywords are case-insensitive. Identifiers are letters, digits, '_' and '.', starting
// with a letter or '_' (tags.language). Strings are single-quoted; a backslash makes the
// next character literal (\' and \\). Positions in errors count characters from 1.
//
// != and NOT IN are not in that tutorial; public queries send them (`type != 'CONTAINER'`:
// https://github.com/newrelic/newrelic-cli/issues/1292; `type NOT IN ('DASHBOARD')`:
// newrelic/nr1-account-maturity src/context/data.js @ 436243610d5189812e7bb534561761f4c0aa22cd).
// What they do with an entity that lacks the property is not documented; here such an
// entity does not match them (search.go).

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIdent
	tokQuotedIdent
	tokString
	tokNumber
	tokLParen
	tokRParen
	tokComma
	tokEq
	tokNe
)

type token struct {
	kind tokenKind
	text string // identifier name, unescaped string, number text
	pos  int    // byte offset in the query
}

// syntaxError is a query the parser rejects; pos is a 1-based character position.
type syntaxError struct {
	pos int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("syntax error at position %d: %s", e.pos, e.msg)
}

type lexer struct {
	src string
	off int
}

func (l *lexer) errAt(off int, format string, args ...any) error {
	return &syntaxError{pos: utf8.RuneCountInString(l.src[:off]) + 1, msg: fmt.Sprintf(format, args...)}
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool {
	return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func (l *lexer) next() (token, error) {
	for l.off < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[l.off:])
		if !unicode.IsSpace(r) {
			break
		}
		l.off += size
	}
	start := l.off
	if l.off >= len(l.src) {
		return token{kind: tokEOF, pos: start}, nil
	}
	r, size := utf8.DecodeRuneInString(l.src[l.off:])
	switch {
	case r == '(':
		l.off++
		return token{kind: tokLParen, text: "(", pos: start}, nil
	case r == ')':
		l.off++
		return token{kind: tokRParen, text: ")", pos: start}, nil
	case r == ',':
		l.off++
		return token{kind: tokComma, text: ",", pos: start}, nil
	case r == '=':
		l.off++
		return token{kind: tokEq, text: "=", pos: start}, nil
	case r == '\'':
		return l.str(start)
	case r == '`':
		end := strings.IndexByte(l.src[start+1:], '`')
		if end < 0 {
			return token{}, l.errAt(start, "unterminated backticked name")
		}
		name := l.src[start+1 : start+1+end]
		if name == "" {
			return token{}, l.errAt(start, "empty backticked name")
		}
		l.off = start + end + 2
		return token{kind: tokQuotedIdent, text: name, pos: start}, nil
	case r == '-' || (r >= '0' && r <= '9'):
		return l.number(start)
	case isIdentStart(r):
		l.off += size
		for l.off < len(l.src) {
			r, size := utf8.DecodeRuneInString(l.src[l.off:])
			if !isIdentPart(r) {
				break
			}
			l.off += size
		}
		return token{kind: tokIdent, text: l.src[start:l.off], pos: start}, nil
	case r == utf8.RuneError && size == 1:
		return token{}, l.errAt(start, "invalid UTF-8")
	}
	if r == '!' && strings.HasPrefix(l.src[l.off:], "!=") {
		l.off += 2
		return token{kind: tokNe, text: "!=", pos: start}, nil
	}
	if strings.ContainsRune("!<>", r) {
		return token{}, l.errAt(start, "unsupported operator %q (the language has =, !=, IN, NOT IN and LIKE)", r)
	}
	return token{}, l.errAt(start, "unexpected character %q", r)
}

func (l *lexer) str(start int) (token, error) {
	var b strings.Builder
	i := start + 1
	for i < len(l.src) {
		c := l.src[i]
		switch c {
		case '\\':
			if i+1 >= len(l.src) {
				return token{}, l.errAt(start, "unterminated string")
			}
			_, size := utf8.DecodeRuneInString(l.src[i+1:])
			b.WriteString(l.src[i+1 : i+1+size])
			i += 1 + size
		case '\'':
			l.off = i + 1
			return token{kind: tokString, text: b.String(), pos: start}, nil
		default:
			b.WriteByte(c)
			i++
		}
	}
	return token{}, l.errAt(start, "unterminated string")
}

func (l *lexer) number(start int) (token, error) {
	i := start
	if l.src[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(l.src) && l.src[i] >= '0' && l.src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if digits() == 0 {
		return token{}, l.errAt(start, "unexpected character '-'")
	}
	if i < len(l.src) && l.src[i] == '.' {
		i++
		if digits() == 0 {
			return token{}, l.errAt(start, "malformed number")
		}
	}
	if i < len(l.src) {
		if r, _ := utf8.DecodeRuneInString(l.src[i:]); isIdentPart(r) {
			return token{}, l.errAt(start, "malformed number")
		}
	}
	l.off = i
	return token{kind: tokNumber, text: l.src[start:i], pos: start}, nil
}

// node is a parsed query.
type node interface {
	// write renders the node as query text; prec is the binding strength of the
	// enclosing operator (0 top, 1 OR, 2 AND).
	write(b *strings.Builder, prec int)
}

type binaryNode struct {
	op          string // "AND" or "OR"
	left, right node
}

type valueKind int

const (
	valString valueKind = iota
	valNumber
	valBool
)

type value struct {
	kind valueKind
	text string
}

type comparisonNode struct {
	property string // as written, backticks removed
	op       string // "=", "!=", "IN", "NOT IN" or "LIKE"
	values   []value
}

func (n *binaryNode) write(b *strings.Builder, prec int) {
	p := 1
	if n.op == "AND" {
		p = 2
	}
	if prec > p {
		b.WriteByte('(')
	}
	n.left.write(b, p)
	b.WriteString(" " + n.op + " ")
	n.right.write(b, p)
	if prec > p {
		b.WriteByte(')')
	}
}

func (n *comparisonNode) write(b *strings.Builder, _ int) {
	writeProperty(b, n.property)
	b.WriteString(" " + n.op + " ")
	list := n.op == "IN" || n.op == "NOT IN"
	if list {
		b.WriteByte('(')
	}
	for i, v := range n.values {
		if i > 0 {
			b.WriteString(", ")
		}
		v.write(b)
	}
	if list {
		b.WriteByte(')')
	}
}

func writeProperty(b *strings.Builder, p string) {
	plain := p != "" && !isKeyword(p)
	for i, r := range p {
		if (i == 0 && !isIdentStart(r)) || !isIdentPart(r) {
			plain = false
			break
		}
	}
	if plain {
		b.WriteString(p)
		return
	}
	b.WriteString("`" + p + "`")
}

func (v value) write(b *strings.Builder) {
	if v.kind != valString {
		b.WriteString(v.text)
		return
	}
	b.WriteByte('\'')
	for _, r := range v.text {
		if r == '\'' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
}

func nodeString(n node) string {
	var b strings.Builder
	n.write(&b, 0)
	return b.String()
}

func isKeyword(s string) bool {
	switch strings.ToUpper(s) {
	case "AND", "OR", "IN", "LIKE", "NOT":
		return true
	}
	return false
}

type parser struct {
	lex *lexer
	tok token
}

// parseQuery parses an entity search query. Errors are *syntaxError.
func parseQuery(src string) (node, error) {
	p := &parser{lex: &lexer{src: src}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokEOF {
		return nil, p.lex.errAt(p.tok.pos, "empty query")
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.unexpected("AND, OR or the end of the query")
	}
	return n, nil
}

func (p *parser) advance() error {
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) keyword(kw string) bool {
	return p.tok.kind == tokIdent && strings.EqualFold(p.tok.text, kw)
}

func (p *parser) unexpected(want string) error {
	if p.tok.kind == tokEOF {
		return p.lex.errAt(p.tok.pos, "expected %s, found the end of the query", want)
	}
	text := p.tok.text
	if p.tok.kind == tokString {
		text = "'" + text + "'"
	}
	return p.lex.errAt(p.tok.pos, "expected %s, found %q", want, text)
}

func (p *parser) or() (node, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.keyword("OR") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = &binaryNode{op: "OR", left: left, right: right}
	}
	return left, nil
}

func (p *parser) and() (node, error) {
	left, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.keyword("AND") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		right, err := p.primary()
		if err != nil {
			return nil, err
		}
		left = &binaryNode{op: "AND", left: left, right: right}
	}
	return left, nil
}

func (p *parser) primary() (node, error) {
	if p.tok.kind == tokLParen {
		if err := p.advance(); err != nil {
			return nil, err
		}
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tokRParen {
			return nil, p.unexpected("')'")
		}
		return n, p.advance()
	}
	return p.comparison()
}

func (p *parser) comparison() (node, error) {
	if (p.tok.kind != tokIdent || isKeyword(p.tok.text)) && p.tok.kind != tokQuotedIdent {
		return nil, p.unexpected("a property name")
	}
	n := &comparisonNode{property: p.tok.text}
	if err := p.advance(); err != nil {
		return nil, err
	}
	switch {
	case p.tok.kind == tokEq:
		n.op = "="
	case p.tok.kind == tokNe:
		n.op = "!="
	case p.keyword("LIKE"):
		n.op = "LIKE"
	case p.keyword("IN"):
		n.op = "IN"
	case p.keyword("NOT"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.keyword("IN") {
			return nil, p.unexpected("IN after NOT")
		}
		n.op = "NOT IN"
	default:
		return nil, p.unexpected("=, !=, IN, NOT IN or LIKE")
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if n.op != "IN" && n.op != "NOT IN" {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.values = []value{v}
		return n, nil
	}
	if p.tok.kind != tokLParen {
		return nil, p.unexpected("'(' after " + n.op)
	}
	for {
		if err := p.advance(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.values = append(n.values, v)
		if p.tok.kind == tokRParen {
			return n, p.advance()
		}
		if p.tok.kind != tokComma {
			return nil, p.unexpected("',' or ')'")
		}
	}
}

func (p *parser) value() (value, error) {
	var v value
	switch {
	case p.tok.kind == tokString:
		v = value{kind: valString, text: p.tok.text}
	case p.tok.kind == tokNumber:
		v = value{kind: valNumber, text: p.tok.text}
	case p.keyword("true") || p.keyword("false"):
		v = value{kind: valBool, text: strings.ToLower(p.tok.text)}
	default:
		return value{}, p.unexpected("a value (a 'quoted string' or a number)")
	}
	return v, p.advance()
}
