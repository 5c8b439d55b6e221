package nrdb

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Query is a parsed NRQL statement.
type Query struct {
	Select  []*SelectItem `parser:"Select @@ ( ',':Punct @@ )*"`
	From    []string      `parser:"From @(Ident|Backtick) ( ',':Punct @(Ident|Backtick) )*"`
	Clauses []*Clause     `parser:"@@*"`
}

// SelectItem is one expression of the SELECT list with its optional alias.
type SelectItem struct {
	Star  bool    `parser:"(  @'*':Punct"`
	Expr  *Expr   `parser:" | @@ )"`
	Alias *string `parser:"( As @String )?"`
}

// Clause is one of the clauses after FROM (NRQL accepts them in any order).
type Clause struct {
	Where      *Cond       `parser:"  Where @@"`
	Facet      []*Attr     `parser:"| Facet @@ ( ',':Punct @@ )*"`
	Since      *TimeSpec   `parser:"| Since @@"`
	Until      *TimeSpec   `parser:"| Until @@"`
	Timeseries *Timeseries `parser:"| @@"`
	Limit      *Limit      `parser:"| Limit @@"`
}

// TimeSpec is an epoch-milliseconds literal or "N unit(s) ago".
type TimeSpec struct {
	Value float64 `parser:"@Number"`
	Unit  *string `parser:"( @Ident Ago )?"`
}

// Timeseries is TIMESERIES [N unit | AUTO | MAX].
type Timeseries struct {
	Keyword bool     `parser:"@Timeseries"`
	Auto    bool     `parser:"(  @(Auto|Max)"`
	Value   *float64 `parser:" | @Number"`
	Unit    *string  `parser:"   @Ident )?"`
}

// Limit is LIMIT N | MAX.
type Limit struct {
	Max   bool     `parser:"  @Max"`
	Value *float64 `parser:"| @Number"`
}

// Cond is a boolean condition: OR of ANDs of possibly negated comparisons.
type Cond struct {
	Or []*AndCond `parser:"@@ ( Or @@ )*"`
}

// AndCond is a conjunction.
type AndCond struct {
	And []*NotCond `parser:"@@ ( And @@ )*"`
}

// NotCond is an optionally negated primary condition.
type NotCond struct {
	Not     bool        `parser:"@Not?"`
	Group   *Cond       `parser:"(  '(':Punct @@ ')':Punct"`
	Compare *Comparison `parser:" | @@ )"`
}

// Comparison is expr op expr, [NOT] IN (...), [NOT] LIKE '...', IS [NOT] NULL.
type Comparison struct {
	Left    *Expr    `parser:"@@"`
	Op      string   `parser:"(  @('=':Punct | '!=':Punct | '<>':Punct | '<=':Punct | '>=':Punct | '<':Punct | '>':Punct)"`
	Right   *Expr    `parser:"   @@"`
	NotIn   bool     `parser:" | @Not? In"`
	In      []*Value `parser:"   '(':Punct @@ ( ',':Punct @@ )* ')':Punct"`
	NotLike bool     `parser:" | @Not? Like"`
	Like    *string  `parser:"   @String"`
	IsNull  *IsNull  `parser:" | Is @@ )"`

	// in holds In's values decoded once (Parse's prepare); nil for a Comparison built
	// otherwise, which evalCompare then decodes per row.
	in *valueSet
}

// IsNull is the tail of IS [NOT] NULL.
type IsNull struct {
	Not  bool `parser:"@Not?"`
	Null bool `parser:"@Null"`
}

// Value is a literal.
type Value struct {
	Neg    bool     `parser:"@'-':Punct?"`
	Number *float64 `parser:"(  @Number"`
	String *string  `parser:" | @String"`
	Bool   *string  `parser:" | @('true':Ident | 'false':Ident) )"`
}

// Expr is a sum of terms.
type Expr struct {
	Left  *Term     `parser:"@@"`
	Right []*OpTerm `parser:"@@*"`
}

// OpTerm is "+ term" or "- term".
type OpTerm struct {
	Op   string `parser:"@('+':Punct | '-':Punct)"`
	Term *Term  `parser:"@@"`
}

// Term is a product of factors.
type Term struct {
	Left  *Factor     `parser:"@@"`
	Right []*OpFactor `parser:"@@*"`
}

// OpFactor is "* factor" or "/ factor".
type OpFactor struct {
	Op     string  `parser:"@('*':Punct | '/':Punct)"`
	Factor *Factor `parser:"@@"`
}

// Factor is a literal, a call, an attribute or a parenthesised expression.
type Factor struct {
	Neg    bool     `parser:"@'-':Punct?"`
	Number *float64 `parser:"(  @Number"`
	String *string  `parser:" | @String"`
	Call   *Call    `parser:" | @@"`
	Attr   *Attr    `parser:" | @@"`
	Group  *Expr    `parser:" | '(':Punct @@ ')':Punct )"`
}

// Call is a function call.
type Call struct {
	Name string `parser:"@(Ident|Max) '(':Punct"`
	Args []*Arg `parser:"( @@ ( ',':Punct @@ )* )? ')':Punct"`
}

// Arg is a function argument: WHERE cond (filter), N unit (rate), '*' or an expression.
type Arg struct {
	Where    *Cond     `parser:"  Where @@"`
	Duration *Duration `parser:"| @@"`
	Star     bool      `parser:"| @'*':Punct"`
	Expr     *Expr     `parser:"| @@"`
}

// Duration is "N unit" inside rate().
type Duration struct {
	Value float64 `parser:"@Number"`
	Unit  string  `parser:"@Ident"`
}

// Attr is an attribute, dotted or backticked, with an optional ['field'] selector.
type Attr struct {
	Parts []string `parser:"( @Backtick | @Ident ) ( '.':Punct @Ident )*"`
	Field *string  `parser:"( '[':Punct @String ']':Punct )?"`
}

// Name is the attribute's full name.
func (a *Attr) Name() string { return strings.Join(a.Parts, ".") }

var keywords = []string{"SELECT", "FROM", "WHERE", "FACET", "SINCE", "UNTIL", "TIMESERIES", "LIMIT",
	"AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL", "AS", "AGO", "MAX", "AUTO"}

func newParser() (*participle.Parser[Query], error) {
	rules := []lexer.SimpleRule{
		{Name: "whitespace", Pattern: `\s+`},
		{Name: "String", Pattern: `'(\\.|[^'\\])*'`},
		{Name: "Backtick", Pattern: "`[^`]*`"},
		{Name: "Number", Pattern: `\d+(\.\d+)?([eE][-+]?\d+)?|\.\d+`},
	}
	for _, k := range keywords {
		name := strings.ToUpper(k[:1]) + strings.ToLower(k[1:])
		rules = append(rules, lexer.SimpleRule{Name: name, Pattern: `(?i)\b` + k + `\b`})
	}
	rules = append(rules,
		lexer.SimpleRule{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		lexer.SimpleRule{Name: "Punct", Pattern: `<=|>=|!=|<>|[-+*/(),.=<>\[\]]`},
	)
	lex, err := lexer.NewSimple(rules)
	if err != nil {
		return nil, fmt.Errorf("nrql lexer: %w", err)
	}
	return participle.Build[Query](
		participle.Lexer(lex),
		participle.Elide("whitespace"),
		participle.Map(func(t lexer.Token) (lexer.Token, error) {
			t.Value = unquote(t.Value)
			return t, nil
		}, "String"),
		participle.Map(func(t lexer.Token) (lexer.Token, error) {
			t.Value = strings.Trim(t.Value, "`")
			return t, nil
		}, "Backtick"),
		participle.UseLookahead(4),
	)
}

// unquote strips the single quotes of an NRQL string literal and resolves backslash
// escapes (\' and \\; any other escaped character stands for itself).
func unquote(s string) string {
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
