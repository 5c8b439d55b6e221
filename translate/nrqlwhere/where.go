package nrqlwhere

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// cond is a boolean condition: OR of ANDs of possibly negated comparisons.
type cond struct {
	Or []*andCond `parser:"@@ ( Or @@ )*"`
}

type andCond struct {
	And []*notCond `parser:"@@ ( And @@ )*"`
}

type notCond struct {
	Not     bool        `parser:"@Not?"`
	Group   *cond       `parser:"(  '(' @@ ')'"`
	Compare *comparison `parser:" | @@ )"`
}

// comparison is expr op expr, [NOT] IN (...), [NOT] LIKE '...', IS [NOT] NULL.
type comparison struct {
	Left    *expr   `parser:"@@"`
	Op      string  `parser:"(  @('=' | '!=' | '<>' | '<=' | '>=' | '<' | '>')"`
	Right   *expr   `parser:"   @@"`
	NotIn   bool    `parser:" | @Not? In"`
	In      *list   `parser:"   @@"`
	NotLike bool    `parser:" | @Not? Like"`
	Like    *string `parser:"   @String"`
	IsNull  *isNull `parser:" | Is @@ )"`
}

type isNull struct {
	Not  bool `parser:"@Not?"`
	Null bool `parser:"@Null"`
}

// list is a parenthesised literal list; Pos and EndPos locate it in the text.
type list struct {
	Pos    lexer.Position
	Values []*value `parser:"'(' @@ ( ',' @@ )* ')'"`
	EndPos lexer.Position
}

type value struct {
	Pos    lexer.Position
	Neg    bool    `parser:"@'-'?"`
	Number *string `parser:"(  @Number"`
	String *string `parser:" | @String"`
	Bool   *string `parser:" | @('true' | 'false') )"`
	EndPos lexer.Position
}

type expr struct {
	Pos    lexer.Position
	Left   *factor   `parser:"@@"`
	Right  []*opTerm `parser:"@@*"`
	EndPos lexer.Position
}

type opTerm struct {
	Op     string  `parser:"@('+' | '-' | '*' | '/' | '%')"`
	Factor *factor `parser:"@@"`
}

type factor struct {
	Neg    bool    `parser:"@'-'?"`
	Number *string `parser:"(  @Number"`
	String *string `parser:" | @String"`
	Call   *call   `parser:" | @@"`
	Attr   *attr   `parser:" | @@"`
	Group  *expr   `parser:" | '(' @@ ')' )"`
}

type call struct {
	Name string `parser:"@Ident '('"`
	Args []*arg `parser:"( @@ ( ',' @@ )* )? ')'"`
}

// arg is a function argument: '*', a named argument (apdex(duration, t: 0.5)) or an
// expression.
type arg struct {
	Star  bool    `parser:"  @'*'"`
	Name  *string `parser:"| ( @Ident ':' )?"`
	Value *expr   `parser:"  @@"`
}

// attr is an attribute name, dotted and/or backticked, with an optional ['key'].
type attr struct {
	Parts []string `parser:"( @Backtick | @Ident ) ( '.' ( @Backtick | @Ident ) )*"`
	Key   *string  `parser:"( '[' @String ']' )?"`
}

var keywords = []string{"WHERE", "AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL",
	// clause keywords that end a WHERE clause
	"SELECT", "FROM", "FACET", "SINCE", "UNTIL", "TIMESERIES", "LIMIT", "COMPARE", "WITH", "ORDER", "SLIDE", "EXTRAPOLATE", "AS"}

// clauseEnds are the keywords that start the clause after WHERE.
var clauseEnds = map[string]bool{"SELECT": true, "FROM": true, "FACET": true, "SINCE": true, "UNTIL": true, "TIMESERIES": true,
	"LIMIT": true, "COMPARE": true, "WITH": true, "ORDER": true, "SLIDE": true, "EXTRAPOLATE": true, "WHERE": true}

func rules() []lexer.SimpleRule {
	r := []lexer.SimpleRule{
		{Name: "whitespace", Pattern: `\s+`},
		// NRQL comments: -- and // to the end of the line, /* ... */.
		{Name: "comment", Pattern: `--[^\n]*|//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
		{Name: "String", Pattern: `'(\\.|[^'\\])*'|"(\\.|[^"\\])*"`},
		{Name: "Backtick", Pattern: "`[^`]*`"},
		{Name: "Number", Pattern: `\d+(\.\d+)?([eE][-+]?\d+)?|\.\d+`},
	}
	for _, k := range keywords {
		r = append(r, lexer.SimpleRule{Name: strings.ToUpper(k[:1]) + strings.ToLower(k[1:]), Pattern: `(?i)\b` + k + `\b`})
	}
	return append(r,
		lexer.SimpleRule{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		lexer.SimpleRule{Name: "Punct", Pattern: `<=|>=|!=|<>|[-+*/%(),.:=<>\[\]{}]`},
	)
}

// Parser parses WHERE clauses; build it once with New (it holds no per-query state).
type Parser struct {
	lex  *lexer.StatefulDefinition
	cond *participle.Parser[cond]
}

// New builds the lexer and the grammar.
func New() (*Parser, error) {
	lex, err := lexer.NewSimple(rules())
	if err != nil {
		return nil, fmt.Errorf("nrql lexer: %w", err)
	}
	p, err := participle.Build[cond](participle.Lexer(lex), participle.Elide("whitespace", "comment"), participle.UseLookahead(64))
	if err != nil {
		return nil, fmt.Errorf("nrql where grammar: %w", err)
	}
	return &Parser{lex: lex, cond: p}, nil
}

// ErrNoWhere is returned for a query without a top-level WHERE clause.
var ErrNoWhere = errors.New("the query has no WHERE clause")

// span is a byte range of the query text.
type span struct{ start, end int }

// whereClauses finds the top-level WHERE clauses (outside parentheses, so a
// filter(..., WHERE ...) argument is not one): the text between each WHERE and the
// next top-level clause keyword.
func (p *Parser) whereClauses(query string) ([]span, error) {
	lx, err := p.lex.LexString("", query)
	if err != nil {
		return nil, fmt.Errorf("nrql: %w", err)
	}
	syms := p.lex.Symbols()
	names := map[lexer.TokenType]string{}
	for n, t := range syms {
		names[t] = n
	}
	var out []span
	depth, open := 0, -1
	for {
		tok, err := lx.Next()
		if err != nil {
			return nil, fmt.Errorf("nrql: %w", err)
		}
		if tok.EOF() {
			break
		}
		kind := names[tok.Type]
		switch {
		case kind == "whitespace" || kind == "comment":
		case kind == "Punct" && tok.Value == "(":
			depth++
		case kind == "Punct" && tok.Value == ")":
			depth--
		case depth == 0 && clauseEnds[strings.ToUpper(kind)]:
			if open >= 0 {
				out = append(out, span{open, tok.Pos.Offset})
				open = -1
			}
			if strings.EqualFold(kind, "Where") {
				open = tok.Pos.Offset + len(tok.Value)
			}
		}
	}
	if open >= 0 {
		out = append(out, span{open, len(query)})
	}
	if len(out) == 0 {
		return nil, ErrNoWhere
	}
	return out, nil
}

// EntityAttributes are the attributes whose IN lists name entities: an APM (or
// browser) application's id and name, and any entity's GUID.
var EntityAttributes = []string{"appId", "appName", "entity.guid"}

// List is one `attribute IN (...)` list of a WHERE clause.
type List struct {
	// Attribute is appId, appName or entity.guid.
	Attribute string
	// Values are the literals, strings unquoted and numbers as written.
	Values []string
	// Strings reports whether the list's literals are strings.
	Strings bool

	close int    // offset of the list's ')'
	items []span // each literal's text
	// eq is set for an equality (`appName = 'checkout'`), a list of one: op is the
	// offset of its '=', items[0] its literal.
	eq *int
}

// EntityLists parses query and returns the IN lists of its top-level WHERE clauses
// that name entities (not negated: a NOT IN list excludes them). It fails when the
// query does not parse; an empty result means the clause has no such list.
func (p *Parser) EntityLists(query string) ([]List, error) {
	spans, err := p.whereClauses(query)
	if err != nil {
		return nil, err
	}
	var out []List
	for _, sp := range spans {
		c, err := p.cond.ParseString("", query[sp.start:sp.end])
		if err != nil {
			return nil, fmt.Errorf("nrql WHERE clause: %w", err)
		}
		walkCond(c, false, func(cmp *comparison) {
			name := entityAttr(cmp.Left)
			if name == "" {
				return
			}
			if cmp.Op == "=" {
				if l, ok := equality(query, sp.start, name, cmp); ok {
					out = append(out, l)
				}
				return
			}
			if cmp.In == nil {
				return
			}
			// EndPos is where the token after the list starts: the list's ')' is the
			// last one before it (only elided whitespace lies between).
			end := sp.start + cmp.In.EndPos.Offset
			l := List{Attribute: name, close: strings.LastIndexByte(query[:end], ')')}
			for _, v := range cmp.In.Values {
				switch {
				case v.String != nil:
					l.Strings = true
					l.Values = append(l.Values, unquote(*v.String))
				case v.Number != nil:
					s := *v.Number
					if v.Neg {
						s = "-" + s
					}
					l.Values = append(l.Values, s)
				default:
					l.Values = append(l.Values, *v.Bool)
				}
				l.items = append(l.items, span{sp.start + v.Pos.Offset, sp.start + v.EndPos.Offset})
			}
			out = append(out, l)
		})
	}
	return out, nil
}

// equality reads `attribute = literal` as a list of one, the way people name a
// condition's single entity (`appName = 'checkout-service'`, `appId = 123`).
func equality(query string, base int, name string, cmp *comparison) (List, bool) {
	r := cmp.Right
	if r == nil || len(r.Right) > 0 || r.Left == nil || (r.Left.Number == nil && r.Left.String == nil) {
		return List{}, false
	}
	f := r.Left
	start := base + r.Pos.Offset
	l := List{Attribute: name}
	var text string
	if f.String != nil {
		text, l.Strings = *f.String, true
		l.Values = []string{unquote(text)}
	} else {
		text = *f.Number
		if f.Neg {
			text = "-" + text
		}
		l.Values = []string{text}
	}
	if !strings.HasPrefix(query[start:], text) {
		return List{}, false // a literal written otherwise (a space after '-'): not rewritten
	}
	op := base + cmp.Left.EndPos.Offset
	if query[op] != '=' {
		return List{}, false
	}
	l.items = []span{{start, start + len(text)}}
	l.close = start + len(text)
	l.eq = &op
	return l, true
}

// walkCond calls f for every comparison not under a NOT, skipping NOT IN lists.
func walkCond(c *cond, negated bool, f func(*comparison)) {
	for _, a := range c.Or {
		for _, n := range a.And {
			neg := negated != n.Not
			switch {
			case n.Group != nil:
				walkCond(n.Group, neg, f)
			case n.Compare != nil && !neg && !n.Compare.NotIn:
				f(n.Compare)
			}
		}
	}
}

// entityAttr is the entity attribute an expression is exactly, or "".
func entityAttr(e *expr) string {
	if e == nil || len(e.Right) > 0 || e.Left == nil || e.Left.Neg || e.Left.Attr == nil || e.Left.Attr.Key != nil {
		return ""
	}
	parts := make([]string, len(e.Left.Attr.Parts))
	for i, p := range e.Left.Attr.Parts {
		parts[i] = strings.Trim(p, "`")
	}
	name := strings.Join(parts, ".")
	for _, a := range EntityAttributes {
		if name == a {
			return a
		}
	}
	return ""
}

// unquote strips a string literal's quotes and resolves backslash escapes.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Index is the position of value in the list, or -1.
func (l List) Index(value string) int {
	for i, v := range l.Values {
		if v == value {
			return i
		}
	}
	return -1
}

// Add returns query with literal (already quoted or formatted by the caller) appended
// to the list.
func (l List) Add(query, literal string) string {
	if l.eq != nil { // `attr = a` becomes `attr IN (a, b)`, the rest kept byte for byte
		it := l.items[0]
		in := "IN ("
		if *l.eq == 0 || query[*l.eq-1] != ' ' {
			in = " IN ("
		}
		return query[:*l.eq] + in + query[it.start:it.end] + ", " + literal + ")" + query[it.end:]
	}
	return query[:l.close] + ", " + literal + query[l.close:]
}

// ErrLastEntity is returned when removing the list's only value, which would leave
// `IN ()`, not valid NRQL.
var ErrLastEntity = errors.New("the list names only this entity; removing it would leave an empty IN list")

// Remove returns query without the list's i-th value and its separator.
func (l List) Remove(query string, i int) (string, error) {
	if len(l.items) <= 1 {
		return "", ErrLastEntity
	}
	start, end := l.items[i].start, l.items[i].end
	if i+1 < len(l.items) {
		end = l.items[i+1].start // drop the value and the separator after it
	} else {
		start = l.items[i-1].end // the last value: drop the separator before it
	}
	return query[:start] + query[end:], nil
}

// AppIDs are the application ids query names by appId (an IN list or an equality in its
// top-level WHERE clauses), as written; nil when it names none that way or does not
// parse.
func (p *Parser) AppIDs(query string) []string {
	lists, err := p.EntityLists(query)
	if err != nil {
		return nil
	}
	var ids []string
	for _, l := range lists {
		if l.Attribute == "appId" && !l.Strings {
			ids = append(ids, l.Values...)
		}
	}
	return ids
}
