//! CEL parser: a hand-written recursive-descent parser for cel-go's grammar
//! (`parser/gen/CEL.g4`) that builds the AST directly, expands macros, and reports
//! errors the way cel-go does.
//!
//! # Why it looks like ANTLR
//!
//! cel-go parses with an ANTLR-generated parser and then walks the parse tree. The
//! Kubernetes API server prints cel-go's messages verbatim, including ANTLR's syntax
//! errors (`mismatched input '<EOF>' expecting {…}`, `missing ')' at '<EOF>'`,
//! `extraneous input 'b' expecting <EOF>`, `no viable alternative at input '.'`) and
//! the errors ANTLR's recovery produces after the first one. To reproduce them, each
//! grammar rule is a function that mirrors the generated code of cel-go's parser: the
//! same `sync` points, token matches and decisions, numbered with the ATN state numbers
//! of the generated parser, and the same error strategy (ANTLR's
//! `DefaultErrorStrategy`: single-token deletion and insertion, recovery by skipping
//! to the follow sets of the rules being parsed, no reports while recovering).
//! Expected-token sets are computed from hand-derived FIRST/FOLLOW sets.
//!
//! Known differences, all about inputs that already have a syntax error:
//!
//! * ANTLR's adaptive prediction may look arbitrarily far ahead; here decisions look
//!   at most as far as valid input needs. The visible effect is the text of the
//!   `no viable alternative` error ANTLR reports while predicting across a syntax
//!   error inside the member chain of a negative number (`-1.f(a b)`).
//! * When a rule gives up, cel-go still walks the partial parse tree and may report
//!   semantic errors (e.g. a bad macro argument) about the partial node; here the
//!   failed subtree becomes a placeholder (except for the operand of a member access
//!   whose prediction failed, as in `has(self.)`), so such extra errors are rarer.
//! * ANTLR lexes lazily, so when parsing is aborted (a limit is hit) the lexer errors
//!   reported so far depend on how far its predictions had looked ahead.
//!
//! # Node ids
//!
//! cel-go assigns ids while walking the finished parse tree. This parser assigns them
//! while parsing, in the same order (e.g. a map entry's id is taken before its key is
//! parsed, the `||` operator's id after its right operand), so valid expressions get
//! the ids cel-go gives them.
//!
//! # Limits
//!
//! Like cel-go: expressions longer than the code point limit are rejected before
//! parsing; a rule nested deeper than the recursion limit aborts parsing with
//! `expression recursion limit exceeded: N`; and an expression whose operator and
//! member-access nesting exceeds the limit fails with `max recursion depth exceeded`
//! (cel-go then reports no other error of its tree walk; here none at all).
//! Kubernetes does not change cel-go's defaults (250 and 100,000).
//!
//! Recursive descent needs stack in proportion to nesting (up to ~25 KiB per level in
//! unoptimised builds), so deeply nested input is parsed on a scoped thread with a
//! stack sized for it; trees never nest much deeper than the limit, so the caller can
//! traverse and drop them recursively.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::ast::{
    Call, Expr, ExprId, ExprKind, List, Literal, MacroCall, Map, MapEntry, ParsedExpr, Select, Span, Struct,
    StructField, operators,
};
use super::errors::{CelError, CelErrors, Source};
use super::lexer::{self, Lexed, Token, TokenKind as T, TokenSet};
use super::macros::{self, IdGen, MacroSet};

mod sets;
mod strategy;

use sets::*;
use strategy::{Abort, Fail, PResult, SyncKind, Tok};

/// Errors of a failed parse; `Display` gives cel-go's text.
pub type ParseErrors = CelErrors;

/// One parse error with its position.
pub type ParseError = CelError;

/// Parser settings; the defaults are what the Kubernetes API server uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserOptions {
    /// Maximum nesting of grammar rules and of operators/member accesses
    /// (cel-go `MaxRecursionDepth`, default 250).
    pub max_recursion_depth: u32,
    /// Maximum expression length in code points (cel-go default 100,000).
    pub expression_size_code_point_limit: usize,
    /// Syntax errors reported before giving up (cel-go default 100).
    pub error_reporting_limit: u32,
    /// Error recovery attempts before giving up (cel-go default 30).
    pub error_recovery_limit: u32,
    /// Tokens one recovery may skip (cel-go default 256).
    pub error_recovery_lookahead_token_limit: u32,
    /// `a.?b`, `a[?b]`, `[?a]`, `{?k: v}`, `Msg{?f: v}` (enabled by Kubernetes'
    /// `cel.OptionalTypes()`).
    pub enable_optional_syntax: bool,
    /// Backquoted field names such as ``a.`b-c` `` (on by default in cel-go).
    pub enable_ident_escape_syntax: bool,
    /// Macros to expand.
    pub macros: MacroSet,
}

impl Default for ParserOptions {
    fn default() -> ParserOptions {
        ParserOptions {
            max_recursion_depth: 250,
            expression_size_code_point_limit: 100_000,
            error_reporting_limit: 100,
            error_recovery_limit: 30,
            error_recovery_lookahead_token_limit: 256,
            enable_optional_syntax: true,
            enable_ident_escape_syntax: true,
            macros: MacroSet::default(),
        }
    }
}

/// Parses a CEL expression with the Kubernetes parser settings.
pub fn parse(src: &str) -> Result<ParsedExpr, ParseErrors> {
    parse_with(src, &ParserOptions::default())
}

/// Parses a CEL expression.
pub fn parse_with(src: &str, options: &ParserOptions) -> Result<ParsedExpr, ParseErrors> {
    let source = Arc::new(Source::new(src));
    let size = source.code_points();
    if size > options.expression_size_code_point_limit {
        let mut errors = CelErrors::new(source);
        errors.push(CelError::without_location(format!(
            "expression code point size exceeds limit: size: {size}, limit {}",
            options.expression_size_code_point_limit
        )));
        return Err(errors);
    }
    let lexed = lexer::tokenize(src);
    let nesting = nesting_estimate(&lexed.tokens).min(options.max_recursion_depth as usize + 2);
    if nesting <= INLINE_NESTING {
        return run(src, source, lexed, options);
    }
    // Deeply nested input: recursive descent needs up to ~25 KiB of stack per level in
    // unoptimised builds, so parse on a thread with a stack sized for the nesting.
    let stack = (1 << 20) + nesting.saturating_mul(STACK_PER_LEVEL).min(1 << 31);
    std::thread::scope(|scope| {
        let shared = source.clone();
        let spawned = std::thread::Builder::new()
            .name("cel-parser".into())
            .stack_size(stack)
            .spawn_scoped(scope, move || run(src, shared, lexed, options));
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => run(src, source, lexer::tokenize(src), options),
        }
    })
}

/// Nesting levels up to which parsing runs on the caller's stack.
const INLINE_NESTING: usize = 16;

/// Stack reserved per nesting level when parsing on a separate thread.
const STACK_PER_LEVEL: usize = 64 * 1024;

/// An upper bound of how deeply the grammar rules will nest for these tokens: the
/// bracket depth plus the number of `?` (each can nest a conditional).
fn nesting_estimate(tokens: &[Token]) -> usize {
    let (mut depth, mut max, mut questions) = (0usize, 0usize, 0usize);
    for t in tokens {
        match t.kind {
            T::LParen | T::LBracket | T::LBrace => {
                depth += 1;
                max = max.max(depth);
            }
            T::RParen | T::RBracket | T::RBrace => depth = depth.saturating_sub(1),
            T::Question => questions += 1,
            _ => {}
        }
    }
    max + questions
}

/// Parses lexed input and collects the errors in cel-go's order: syntax errors as
/// reported, then the errors of the tree walk (here: of tree building).
fn run(src: &str, source: Arc<Source>, lexed: Lexed, options: &ParserOptions) -> Result<ParsedExpr, ParseErrors> {
    let mut errors = CelErrors::new(source.clone());
    let mut parser = Parser::new(src, &source, lexed, options);
    let result = parser.start();
    let depth = result.as_ref().map_or(0, |e| parser.height(e));
    let too_deep = parser.too_deep;
    let (syntax, mut semantic) = (parser.syntax_errors, parser.semantic_errors);
    let (macro_calls, next_id) = (parser.macro_calls, parser.ids.peek());
    let expr = match result {
        Ok(expr) => {
            if too_deep || depth > options.max_recursion_depth {
                semantic = vec![CelError::without_location("max recursion depth exceeded")];
            }
            Some(expr)
        }
        // An aborted parse never reaches cel-go's tree walk, so no semantic errors.
        Err(Abort) => {
            semantic.clear();
            None
        }
    };
    for e in syntax.into_iter().chain(semantic) {
        errors.push(e);
    }
    match expr {
        Some(expr) if errors.is_empty() => Ok(ParsedExpr {
            expr,
            macro_calls,
            source,
            next_id,
        }),
        _ => {
            errors.sort();
            Err(errors)
        }
    }
}

/// Grammar rules, for the per-rule nesting limit (cel-go's `recursionListener`).
#[derive(Clone, Copy)]
enum Rule {
    Start,
    Expr,
    ConditionalOr,
    ConditionalAnd,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    FieldInitializerList,
    OptField,
    MapInitializerList,
    EscapeIdent,
    OptExpr,
    Literal,
}

const RULE_COUNT: usize = 17;

/// Identifiers cel-go rejects as variable and function names.
const RESERVED_IDS: [&str; 21] = [
    "as",
    "break",
    "const",
    "continue",
    "else",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "let",
    "loop",
    "package",
    "namespace",
    "null",
    "return",
    "true",
    "var",
    "void",
    "while",
];

/// A field name from `escapeIdent`.
struct FieldName {
    /// The name; empty when `problem` is set.
    name: String,
    span: Span,
    /// Why cel-go's `normalizeIdent` rejects it: a backquoted name while escapes are
    /// disabled, or a name that failed to parse (`unsupported ident kind`).
    problem: Option<&'static str>,
}

const UNSUPPORTED_IDENT: &str = "unsupported ident kind";

// ---------------------------------------------------------------------------------

struct Parser<'s> {
    src: &'s str,
    source: &'s Source,
    opts: &'s ParserOptions,
    /// All tokens, hidden ones included.
    tokens: Vec<Token>,
    /// Indices into `tokens` of the tokens the parser sees; the last one is `Eof`.
    visible: Vec<usize>,
    /// Lexer errors with the visible index of the token they precede.
    lex_errors: Vec<(usize, lexer::LexError)>,
    lex_reported: usize,
    /// Current position (index into `visible`).
    pos: usize,

    // ANTLR error strategy state.
    state: u16,
    recovering: bool,
    last_error_index: Option<usize>,
    last_error_states: Vec<u16>,
    recovery_attempts: u32,
    recovery_consumed: u32,
    syntax_reports: u32,
    aborted: bool,
    stack: Vec<Site>,
    rule_depth: [u32; RULE_COUNT],

    // Tree building.
    ids: IdGen,
    /// Per node id: nesting of operators and member accesses below and including the
    /// node (what cel-go's tree walk counts against the recursion limit).
    heights: Vec<u32>,
    macro_calls: BTreeMap<ExprId, MacroCall>,
    /// Some node nested operators deeper than the recursion limit.
    too_deep: bool,
    syntax_errors: Vec<CelError>,
    semantic_errors: Vec<CelError>,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, source: &'s Source, lexed: Lexed, opts: &'s ParserOptions) -> Parser<'s> {
        let Lexed { tokens, errors } = lexed;
        let visible: Vec<usize> = (0..tokens.len()).filter(|&i| !tokens[i].kind.is_hidden()).collect();
        let lex_errors = errors
            .into_iter()
            .map(|e| {
                let trigger = visible.partition_point(|&i| i < e.next_token);
                (trigger, e)
            })
            .collect();
        Parser {
            src,
            source,
            opts,
            tokens,
            visible,
            lex_errors,
            lex_reported: 0,
            pos: 0,
            state: 0,
            recovering: false,
            last_error_index: None,
            last_error_states: Vec::new(),
            recovery_attempts: 0,
            recovery_consumed: 0,
            syntax_reports: 0,
            aborted: false,
            stack: Vec::new(),
            rule_depth: [0; RULE_COUNT],
            ids: IdGen::new(),
            heights: Vec::new(),
            macro_calls: BTreeMap::new(),
            too_deep: false,
            syntax_errors: Vec::new(),
            semantic_errors: Vec::new(),
        }
    }

    // -----------------------------------------------------------------------------
    // Rule plumbing

    /// Runs a rule body: counts nesting (cel-go's recursion listener) and handles a
    /// failed body like ANTLR's `errorExit` (report, recover, return a placeholder).
    fn rule<R>(
        &mut self,
        rule: Rule,
        body: impl FnOnce(&mut Self) -> PResult<R>,
        on_error: impl FnOnce(&mut Self) -> R,
    ) -> Result<R, Abort> {
        self.check_abort()?;
        let depth = &mut self.rule_depth[rule as usize];
        *depth += 1;
        if *depth > self.opts.max_recursion_depth {
            let limit = self.opts.max_recursion_depth;
            return Err(self.internal_error(format!("expression recursion limit exceeded: {limit}")));
        }
        let result = match body(self) {
            Ok(r) => Ok(r),
            Err(Fail::Abort(a)) => Err(a),
            Err(Fail::Recognition(e)) => {
                self.report_recognition(&e);
                self.recover().map(|()| on_error(self))
            }
        };
        self.rule_depth[rule as usize] -= 1;
        if result.is_ok() {
            self.check_abort()?;
        }
        result
    }

    /// Invokes a rule from `site`.
    fn invoke<R>(&mut self, site: Site, f: impl FnOnce(&mut Self) -> Result<R, Abort>) -> Result<R, Abort> {
        self.state = site.state;
        self.stack.push(site);
        let result = f(self);
        self.stack.pop();
        self.state = site.state;
        result
    }

    // -----------------------------------------------------------------------------
    // Tree building

    fn height(&self, e: &Expr) -> u32 {
        self.heights.get(e.id as usize).copied().unwrap_or(0)
    }

    fn set_height(&mut self, id: ExprId, height: u32) {
        let i = id as usize;
        if self.heights.len() <= i {
            self.heights.resize(i + 1, 0);
        }
        self.heights[i] = height;
    }

    fn max_height<'e>(&self, exprs: impl IntoIterator<Item = &'e Expr>) -> u32 {
        exprs.into_iter().map(|e| self.height(e)).max().unwrap_or(0)
    }

    /// The operand of a left-recursive chain (`a.b.c…`, `a + b + …`). Once it nests
    /// deeper than the recursion limit the expression is rejected anyway (cel-go's
    /// tree walk fails), so it is replaced by a placeholder: this keeps trees shallow
    /// enough for recursive traversal and drop whatever the input length.
    fn cap(&mut self, e: Expr) -> Expr {
        if self.height(&e) > self.opts.max_recursion_depth {
            self.too_deep = true;
            return self.placeholder();
        }
        e
    }

    fn node(&mut self, span: Span, kind: ExprKind) -> Expr {
        Expr {
            id: self.ids.next(),
            span,
            kind,
        }
    }

    /// A stand-in for a subtree that failed to parse (cel-go's unspecified
    /// expression). It only exists in trees with errors, which are never returned.
    fn placeholder(&mut self) -> Expr {
        let span = Span::at(self.current_span().start);
        self.node(span, ExprKind::Literal(Literal::Null))
    }

    /// cel-go's `reportError(ctx, …)`: an error located at `span` and an error node.
    fn error_node(&mut self, span: Span, message: impl Into<String>) -> Expr {
        let e = self.node(Span::at(span.start), ExprKind::Literal(Literal::Null));
        self.semantic_errors
            .push(CelError::at(self.source, span.start, e.id, message));
        e
    }

    /// A call (with the id taken at its token), or the macro it expands to.
    fn call_or_macro(
        &mut self,
        id: ExprId,
        span: Span,
        function: String,
        target: Option<Expr>,
        args: Vec<Expr>,
        height: u32,
    ) -> Expr {
        if let Some(kind) = self.opts.macros.lookup(&function, args.len(), target.is_some()) {
            let record = MacroCall {
                kind,
                function,
                target: target.clone(),
                args: args.clone(),
            };
            let expanded = macros::expand(kind, &mut self.ids, span, target, args);
            self.ids.delete(id);
            return match expanded {
                Ok(expr) => {
                    self.set_height(expr.id, height);
                    self.macro_calls.insert(expr.id, record);
                    expr
                }
                Err(e) => self.error_node(e.span, e.message),
            };
        }
        self.set_height(id, height);
        let target = target.map(Box::new);
        Expr {
            id,
            span,
            kind: ExprKind::Call(Call { target, function, args }),
        }
    }

    fn binary(&mut self, op: (ExprId, Span), function: &str, lhs: Expr, rhs: Expr) -> Expr {
        let height = 1 + self.height(&lhs).max(self.height(&rhs));
        self.call_or_macro(op.0, op.1, function.to_string(), None, vec![lhs, rhs], height)
    }

    /// `&&`/`||` chains as a balanced tree, like cel-go's `logicManager`.
    fn balanced(&mut self, function: &str, terms: Vec<Expr>, ops: Vec<(ExprId, Span)>) -> Expr {
        let mut terms: Vec<Option<Expr>> = terms.into_iter().map(Some).collect();
        if ops.is_empty() {
            return terms.pop().flatten().unwrap_or_else(|| self.placeholder());
        }
        self.balanced_range(function, &mut terms, &ops, 0, ops.len() - 1)
    }

    fn balanced_range(
        &mut self,
        function: &str,
        terms: &mut [Option<Expr>],
        ops: &[(ExprId, Span)],
        lo: usize,
        hi: usize,
    ) -> Expr {
        let mid = (lo + hi).div_ceil(2);
        let left = if mid == lo {
            terms[mid].take()
        } else {
            Some(self.balanced_range(function, terms, ops, lo, mid - 1))
        };
        let right = if mid == hi {
            terms[mid + 1].take()
        } else {
            Some(self.balanced_range(function, terms, ops, mid + 1, hi))
        };
        let args: Vec<Expr> = left.into_iter().chain(right).collect();
        let (id, span) = ops[mid];
        let height = self.max_height(&args);
        self.set_height(id, height);
        Expr {
            id,
            span,
            kind: ExprKind::Call(Call {
                target: None,
                function: function.to_string(),
                args,
            }),
        }
    }

    fn text(&self, span: Span) -> &'s str {
        &self.src[span.start..span.end]
    }

    // -----------------------------------------------------------------------------
    // Grammar rules

    /// `start : expr EOF`
    fn start(&mut self) -> Result<Expr, Abort> {
        self.fetch(0);
        self.rule(
            Rule::Start,
            |p| {
                let e = p.invoke(START_EXPR, Self::expr)?;
                p.expect(35, T::Eof, EPS)?;
                Ok(e)
            },
            Self::placeholder,
        )
    }

    /// `expr : conditionalOr ('?' conditionalOr ':' expr)?`
    fn expr(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::Expr,
            |p| {
                let cond = p.invoke(EXPR_COND, Self::conditional_or)?;
                p.sync(43, SyncKind::Block, set(&[T::Question]).with_epsilon())?;
                if p.la(1) != T::Question {
                    return Ok(cond);
                }
                let q = p.expect(38, T::Question, OPT_EXPR_FIRST)?;
                let id = p.ids.next();
                let if_true = p.invoke(EXPR_COND2, Self::conditional_or)?;
                p.expect(40, T::Colon, EXPR_FIRST)?;
                let if_false = p.invoke(EXPR_EXPR, Self::expr)?;
                let height = 1 + p.max_height([&cond, &if_true, &if_false]);
                let args = vec![cond, if_true, if_false];
                Ok(p.call_or_macro(id, q.span, operators::CONDITIONAL.into(), None, args, height))
            },
            Self::placeholder,
        )
    }

    /// `conditionalOr : conditionalAnd ('||' conditionalAnd)*`
    fn conditional_or(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::ConditionalOr,
            |p| p.logic_chain(T::LogicalOr, operators::LOGICAL_OR, (OR_AND, OR_AND2), (50, 46, 52)),
            Self::placeholder,
        )
    }

    /// `conditionalAnd : relation ('&&' relation)*`
    fn conditional_and(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::ConditionalAnd,
            |p| p.logic_chain(T::LogicalAnd, operators::LOGICAL_AND, (AND_REL, AND_REL2), (58, 54, 60)),
            Self::placeholder,
        )
    }

    fn logic_chain(&mut self, op: T, function: &str, sites: (Site, Site), states: (u16, u16, u16)) -> PResult<Expr> {
        let operand = |p: &mut Self| {
            if op == T::LogicalOr {
                p.conditional_and()
            } else {
                p.relation(0)
            }
        };
        let loop_set = set(&[op]).with_epsilon();
        let first = self.invoke(sites.0, operand)?;
        let mut terms = vec![first];
        let mut ops = Vec::new();
        self.sync(states.0, SyncKind::Block, loop_set)?;
        while self.la(1) == op {
            let tok = self.expect(states.1, op, EXPR_FIRST)?;
            let next = self.invoke(sites.1, operand)?;
            // cel-go takes the operator's id after visiting the right operand.
            ops.push((self.ids.next(), tok.span));
            terms.push(next);
            self.sync(states.2, SyncKind::LoopBack, loop_set)?;
        }
        Ok(self.balanced(function, terms, ops))
    }

    /// `relation : calc | relation op=('<'|'<='|'>='|'>'|'=='|'!='|'in') relation`
    fn relation(&mut self, precedence: u8) -> Result<Expr, Abort> {
        self.rule(
            Rule::Relation,
            |p| {
                let mut lhs = p.invoke(REL_CALC, |p| p.calc(0))?;
                p.sync(69, SyncKind::Block, REL_OPS.with_epsilon())?;
                while REL_OPS.contains(p.la(1)) && precedence <= 1 {
                    p.check_abort()?;
                    let kind = p.la(1);
                    lhs = p.cap(lhs);
                    let op = p.take(65);
                    let id = p.ids.next();
                    let rhs = p.invoke(REL_REL, |p| p.relation(2))?;
                    let function = match kind {
                        T::Equals => operators::EQUALS,
                        T::NotEquals => operators::NOT_EQUALS,
                        T::In => operators::IN,
                        T::Less => operators::LESS,
                        T::LessEquals => operators::LESS_EQUALS,
                        T::GreaterEquals => operators::GREATER_EQUALS,
                        _ => operators::GREATER,
                    };
                    lhs = p.binary((id, op.span), function, lhs, rhs);
                    p.sync(71, SyncKind::LoopBack, REL_OPS.with_epsilon())?;
                }
                Ok(lhs)
            },
            Self::placeholder,
        )
    }

    /// `calc : unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc`
    fn calc(&mut self, precedence: u8) -> Result<Expr, Abort> {
        self.rule(
            Rule::Calc,
            |p| {
                let mut lhs = p.invoke(CALC_UNARY, Self::unary)?;
                p.sync(83, SyncKind::Block, CALC_OPS.with_epsilon())?;
                loop {
                    let kind = p.la(1);
                    let (site, next) = if MUL_OPS.contains(kind) && precedence <= 2 {
                        (CALC_MUL, 3)
                    } else if ADD_OPS.contains(kind) && precedence <= 1 {
                        (CALC_ADD, 2)
                    } else {
                        break;
                    };
                    p.check_abort()?;
                    lhs = p.cap(lhs);
                    p.sync(81, SyncKind::Block, CALC_OPS)?;
                    let op = p.take(if next == 3 { 76 } else { 79 });
                    let id = p.ids.next();
                    let rhs = p.invoke(site, |p| p.calc(next))?;
                    let function = match kind {
                        T::Star => operators::MULTIPLY,
                        T::Slash => operators::DIVIDE,
                        T::Percent => operators::MODULO,
                        T::Plus => operators::ADD,
                        _ => operators::SUBTRACT,
                    };
                    lhs = p.binary((id, op.span), function, lhs, rhs);
                    p.sync(85, SyncKind::LoopBack, CALC_OPS.with_epsilon())?;
                }
                Ok(lhs)
            },
            Self::placeholder,
        )
    }

    /// `unary : member | ('!')+ member | ('-')+ member`
    fn unary(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::Unary,
            |p| {
                p.sync(99, SyncKind::Block, EXPR_FIRST)?;
                match p.la(1) {
                    T::Exclam => p.unary_ops(T::Exclam),
                    T::Minus => match p.la(2) {
                        // `-1` is a negative literal (ANTLR resolves the ambiguity with
                        // `-(1)` to the first alternative, `member`).
                        T::NumInt | T::NumFloat => Ok(p.invoke(UNARY_MEMBER, Self::member)?),
                        k if k == T::Minus || PRIMARY_FIRST.contains(k) => p.unary_ops(T::Minus),
                        _ => Err(p.no_viable(2)),
                    },
                    k if EXPR_FIRST.contains(k) => Ok(p.invoke(UNARY_MEMBER, Self::member)?),
                    _ => Err(p.no_viable(1)),
                }
            },
            Self::placeholder,
        )
    }

    /// The `('!')+ member` and `('-')+ member` alternatives. An even number of
    /// operators cancels out (cel-go drops them).
    fn unary_ops(&mut self, op: T) -> PResult<Expr> {
        let not = op == T::Exclam;
        let loop_set = set(&[op]).union(PRIMARY_FIRST);
        self.sync(if not { 88 } else { 94 }, SyncKind::Block, set(&[op]))?;
        let mut ops = Vec::new();
        loop {
            ops.push(self.expect(if not { 87 } else { 93 }, op, loop_set)?);
            self.sync(if not { 90 } else { 96 }, SyncKind::LoopBack, loop_set)?;
            if not {
                if self.la(1) != T::Exclam {
                    break;
                }
            } else {
                // Another `-` continues the loop, even before a number (ANTLR picks the
                // first alternative of the ambiguity), so `--1` is `1`.
                match self.la(1) {
                    T::Minus => match self.la(2) {
                        k if k == T::Minus || PRIMARY_FIRST.contains(k) => {}
                        _ => return Err(self.no_viable(2)),
                    },
                    k if PRIMARY_FIRST.contains(k) => break,
                    _ => return Err(self.no_viable(1)),
                }
            }
            self.check_abort()?;
        }
        let op_id = (ops.len() % 2 == 1).then(|| self.ids.next());
        let site = if not { NOT_MEMBER } else { NEG_MEMBER };
        let operand = self.invoke(site, Self::member)?;
        Ok(match op_id {
            Some(id) => {
                let function = if not { operators::LOGICAL_NOT } else { operators::NEGATE };
                let height = self.height(&operand);
                self.call_or_macro(id, ops[0].span, function.into(), None, vec![operand], height)
            }
            None => operand,
        })
    }

    /// `member : primary | member '.' '?'? escapeIdent | member '.' IDENTIFIER '(' exprList? ')'
    ///         | member '[' '?'? expr ']'`
    fn member(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::Member,
            |p| {
                let mut e = p.invoke(MEMBER_PRIMARY, Self::primary)?;
                p.sync(128, SyncKind::Block, POSTFIX.with_epsilon())?;
                while POSTFIX.contains(p.la(1)) {
                    p.check_abort()?;
                    e = p.cap(e);
                    p.sync(126, SyncKind::Block, POSTFIX)?;
                    e = if p.la(1) == T::LBracket {
                        p.index(e)?
                    } else {
                        match p.la(2) {
                            T::Question | T::EscIdentifier => p.select(e)?,
                            T::Identifier if p.la(3) == T::LParen => p.member_call(e)?,
                            T::Identifier => p.select(e)?,
                            _ => {
                                // ANTLR's error exit keeps the member parsed so far,
                                // which cel-go then visits (`has(self.)` also reports
                                // the invalid `has` argument).
                                let error = p.no_viable_alt(2);
                                p.report_recognition(&error);
                                p.recover()?;
                                return Ok(e);
                            }
                        }
                    };
                    p.sync(130, SyncKind::LoopBack, POSTFIX.with_epsilon())?;
                }
                Ok(e)
            },
            Self::placeholder,
        )
    }

    /// `member '.' '?'? escapeIdent`
    fn select(&mut self, operand: Expr) -> PResult<Expr> {
        let dot = self.expect(105, T::Dot, OPT_FIELD_FIRST)?;
        self.sync(107, SyncKind::Block, OPT_FIELD_FIRST)?;
        let optional = if self.la(1) == T::Question {
            self.expect(106, T::Question, IDENTS)?;
            true
        } else {
            false
        };
        let field = self.invoke(MEMBER_FIELD, Self::escape_ident)?;
        if let Some(problem) = field.problem {
            self.error_node(field.span, problem);
        }
        let height = 1 + self.height(&operand);
        if optional {
            if !self.opts.enable_optional_syntax {
                return Ok(self.error_node(dot.span, "unsupported syntax '.?'"));
            }
            let name = self.node(field.span, ExprKind::Literal(Literal::String(field.name)));
            let id = self.ids.next();
            self.set_height(id, height);
            return Ok(Expr {
                id,
                span: dot.span,
                kind: ExprKind::Call(Call {
                    target: None,
                    function: operators::OPT_SELECT.into(),
                    args: vec![operand, name],
                }),
            });
        }
        let e = self.node(
            dot.span,
            ExprKind::Select(Select {
                operand: Box::new(operand),
                field: field.name,
                test_only: false,
            }),
        );
        self.set_height(e.id, height);
        Ok(e)
    }

    /// `member '.' IDENTIFIER '(' exprList? ')'`
    fn member_call(&mut self, target: Expr) -> PResult<Expr> {
        self.expect(111, T::Dot, set(&[T::Identifier]))?;
        let name = self.expect(112, T::Identifier, set(&[T::LParen]))?;
        let open = self.expect(113, T::LParen, EXPR_FIRST.union(set(&[T::RParen])))?;
        let id = self.ids.next();
        let args = self.arguments(115, MEMBER_ARGS)?;
        self.expect(117, T::RParen, POSTFIX.with_epsilon())?;
        let height = 1 + self.height(&target).max(self.max_height(&args));
        let function = self.text(name.span).to_string();
        Ok(self.call_or_macro(id, open.span, function, Some(target), args, height))
    }

    /// `exprList?` followed by `)`.
    fn arguments(&mut self, state: u16, site: Site) -> PResult<Vec<Expr>> {
        self.sync(state, SyncKind::Block, EXPR_FIRST.union(set(&[T::RParen])))?;
        if EXPR_FIRST.contains(self.la(1)) {
            Ok(self.invoke(site, Self::expr_list)?)
        } else {
            Ok(Vec::new())
        }
    }

    /// `member '[' '?'? expr ']'`
    fn index(&mut self, target: Expr) -> PResult<Expr> {
        let open = self.expect(119, T::LBracket, OPT_EXPR_FIRST)?;
        let id = self.ids.next();
        self.sync(121, SyncKind::Block, OPT_EXPR_FIRST)?;
        let optional = if self.la(1) == T::Question {
            self.expect(120, T::Question, EXPR_FIRST)?;
            true
        } else {
            false
        };
        let index = self.invoke(MEMBER_INDEX, Self::expr)?;
        self.expect(124, T::RBracket, POSTFIX.with_epsilon())?;
        if optional && !self.opts.enable_optional_syntax {
            return Ok(self.error_node(open.span, "unsupported syntax '[?'"));
        }
        let function = if optional {
            operators::OPT_INDEX
        } else {
            operators::INDEX
        };
        let height = 1 + self.height(&target).max(self.height(&index));
        Ok(self.call_or_macro(id, open.span, function.into(), None, vec![target, index], height))
    }

    /// Whether `IDENTIFIER ('.' IDENTIFIER)* '{'` starts at lookahead `k`.
    fn is_message_name(&mut self, mut k: usize) -> bool {
        loop {
            match self.la(k + 1) {
                T::LBrace => return true,
                T::Dot if self.la(k + 2) == T::Identifier => k += 2,
                _ => return false,
            }
        }
    }

    /// `primary`: identifiers, global calls, parentheses, list, map and message
    /// literals, and literals.
    fn primary(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::Primary,
            |p| {
                p.sync(184, SyncKind::Block, PRIMARY_FIRST)?;
                match p.la(1) {
                    T::Dot | T::Identifier => {
                        let k = if p.la(1) == T::Dot { 2 } else { 1 };
                        if p.la(k) != T::Identifier {
                            return Err(p.no_viable(k));
                        }
                        if p.la(k + 1) == T::LParen {
                            p.global_call()
                        } else if p.is_message_name(k) {
                            p.message()
                        } else {
                            p.ident()
                        }
                    }
                    T::LParen => {
                        p.expect(144, T::LParen, EXPR_FIRST)?;
                        let e = p.invoke(PRIMARY_NESTED, Self::expr)?;
                        p.expect(146, T::RParen, EPS)?;
                        Ok(e)
                    }
                    T::LBracket => p.list(),
                    T::LBrace => p.map(),
                    T::Minus if !matches!(p.la(2), T::NumInt | T::NumFloat) => Err(p.no_viable(2)),
                    k if LITERAL_FIRST.contains(k) => Ok(p.invoke(PRIMARY_LITERAL, Self::literal)?),
                    _ => Err(p.no_viable(1)),
                }
            },
            Self::placeholder,
        )
    }

    /// An optional leading dot before an identifier (states `dot_state`,
    /// `sync_state`).
    fn leading_dot(&mut self, sync_state: u16, dot_state: u16) -> PResult<Option<Tok>> {
        self.sync(sync_state, SyncKind::Block, set(&[T::Dot, T::Identifier]))?;
        if self.la(1) == T::Dot {
            Ok(Some(self.expect(dot_state, T::Dot, set(&[T::Identifier]))?))
        } else {
            Ok(None)
        }
    }

    /// `'.'? IDENTIFIER`
    fn ident(&mut self) -> PResult<Expr> {
        let dot = self.leading_dot(132, 131)?;
        let id = self.expect(134, T::Identifier, EPS)?;
        let name = self.text(id.span);
        if RESERVED_IDS.contains(&name) {
            let at = dot.map_or(id.span, |d| d.span);
            return Ok(self.error_node(at, format!("reserved identifier: {name}")));
        }
        let name = if dot.is_some() {
            format!(".{name}")
        } else {
            name.to_string()
        };
        Ok(self.node(id.span, ExprKind::Ident(name)))
    }

    /// `'.'? IDENTIFIER '(' exprList? ')'`
    fn global_call(&mut self) -> PResult<Expr> {
        let dot = self.leading_dot(136, 135)?;
        let name = self.expect(138, T::Identifier, set(&[T::LParen]))?;
        let open = self.expect(139, T::LParen, EXPR_FIRST.union(set(&[T::RParen])))?;
        let id = self.ids.next();
        let checkpoint = self.semantic_errors.len();
        let args = self.arguments(141, PRIMARY_ARGS)?;
        self.expect(143, T::RParen, EPS)?;
        let text = self.text(name.span);
        if RESERVED_IDS.contains(&text) {
            // cel-go rejects the name before looking at the arguments.
            self.semantic_errors.truncate(checkpoint);
            let at = dot.map_or(name.span, |d| d.span);
            return Ok(self.error_node(at, format!("reserved identifier: {text}")));
        }
        let function = if dot.is_some() {
            format!(".{text}")
        } else {
            text.to_string()
        };
        let height = self.max_height(&args);
        Ok(self.call_or_macro(id, open.span, function, None, args, height))
    }

    /// `'.'? IDENTIFIER ('.' IDENTIFIER)* '{' fieldInitializerList? ','? '}'`
    fn message(&mut self) -> PResult<Expr> {
        let dot = self.leading_dot(165, 164)?;
        let first = self.expect(167, T::Identifier, set(&[T::Dot, T::LBrace]))?;
        let mut type_name = if dot.is_some() { ".".to_string() } else { String::new() };
        type_name.push_str(self.text(first.span));
        let name_loop = set(&[T::Dot, T::LBrace]);
        self.sync(172, SyncKind::Block, name_loop)?;
        while self.la(1) == T::Dot {
            self.expect(168, T::Dot, set(&[T::Identifier]))?;
            let part = self.expect(169, T::Identifier, name_loop)?;
            type_name.push('.');
            type_name.push_str(self.text(part.span));
            self.sync(174, SyncKind::LoopBack, name_loop)?;
        }
        let open = self.expect(175, T::LBrace, OPT_FIELD_FIRST.union(set(&[T::Comma, T::RBrace])))?;
        let id = self.ids.next();
        let fields = self.initializers(177, OPT_FIELD_FIRST, PRIMARY_FIELDS, Self::field_initializer_list)?;
        self.trailing_comma(180, 179, 182, T::RBrace)?;
        let height = self.max_height(fields.iter().map(|f| &f.value));
        self.set_height(id, height);
        Ok(Expr {
            id,
            span: open.span,
            kind: ExprKind::Struct(Struct { type_name, fields }),
        })
    }

    /// The optional initializer list after `[` or `{`: parsed by `rule` from `site`
    /// when the next token is in `first`.
    fn initializers<R: Default>(
        &mut self,
        state: u16,
        first: TokenSet,
        site: Site,
        rule: fn(&mut Self) -> Result<R, Abort>,
    ) -> PResult<R> {
        let close = if site.follow.contains(T::RBracket) {
            T::RBracket
        } else {
            T::RBrace
        };
        self.sync(state, SyncKind::Block, first.union(set(&[T::Comma, close])))?;
        if first.contains(self.la(1)) {
            Ok(self.invoke(site, rule)?)
        } else {
            Ok(R::default())
        }
    }

    /// `','? close`
    fn trailing_comma(&mut self, sync_state: u16, comma_state: u16, close_state: u16, close: T) -> PResult<Tok> {
        self.sync(sync_state, SyncKind::Block, set(&[T::Comma, close]))?;
        if self.la(1) == T::Comma {
            self.expect(comma_state, T::Comma, set(&[close]))?;
        }
        self.expect(close_state, close, EPS)
    }

    /// `'[' listInit? ','? ']'`
    fn list(&mut self) -> PResult<Expr> {
        let open = self.expect(148, T::LBracket, OPT_EXPR_FIRST.union(set(&[T::Comma, T::RBracket])))?;
        let id = self.ids.next();
        let elements = self.initializers(150, OPT_EXPR_FIRST, PRIMARY_LIST, Self::list_init)?;
        self.trailing_comma(153, 152, 155, T::RBracket)?;
        let mut exprs = Vec::with_capacity(elements.len());
        let mut optional_indices = Vec::new();
        for (i, (question, e)) in elements.into_iter().enumerate() {
            exprs.push(e);
            if let Some(q) = question {
                if self.opts.enable_optional_syntax {
                    optional_indices.push(i as u32);
                } else {
                    self.error_node(q.span, "unsupported syntax '?'");
                }
            }
        }
        let height = self.max_height(&exprs);
        self.set_height(id, height);
        Ok(Expr {
            id,
            span: open.span,
            kind: ExprKind::List(List {
                elements: exprs,
                optional_indices,
            }),
        })
    }

    /// `'{' mapInitializerList? ','? '}'`
    fn map(&mut self) -> PResult<Expr> {
        let open = self.expect(156, T::LBrace, OPT_EXPR_FIRST.union(set(&[T::Comma, T::RBrace])))?;
        let id = self.ids.next();
        let entries = self.initializers(158, OPT_EXPR_FIRST, PRIMARY_MAP, Self::map_initializer_list)?;
        self.trailing_comma(161, 160, 163, T::RBrace)?;
        let height = entries
            .iter()
            .map(|e| self.height(&e.key).max(self.height(&e.value)))
            .max()
            .unwrap_or(0);
        self.set_height(id, height);
        Ok(Expr {
            id,
            span: open.span,
            kind: ExprKind::Map(Map { entries }),
        })
    }

    /// `exprList : expr (',' expr)*`
    fn expr_list(&mut self) -> Result<Vec<Expr>, Abort> {
        self.rule(
            Rule::ExprList,
            |p| {
                let mut exprs = vec![p.invoke(LIST_EXPR, Self::expr)?];
                let loop_set = set(&[T::Comma]).with_epsilon();
                p.sync(191, SyncKind::Block, loop_set)?;
                while p.la(1) == T::Comma {
                    p.expect(187, T::Comma, EXPR_FIRST)?;
                    exprs.push(p.invoke(LIST_EXPR2, Self::expr)?);
                    p.sync(193, SyncKind::LoopBack, loop_set)?;
                }
                Ok(exprs)
            },
            |_| Vec::new(),
        )
    }

    /// Whether a `','` continues an initializer list whose items start with `first`
    /// (otherwise it is the optional trailing comma).
    fn continues_list(&mut self, first: TokenSet) -> bool {
        self.la(1) == T::Comma && first.contains(self.la(2))
    }

    /// `listInit : optExpr (',' optExpr)*`
    fn list_init(&mut self) -> Result<Vec<(Option<Tok>, Expr)>, Abort> {
        self.rule(
            Rule::ListInit,
            |p| {
                let mut elements = vec![p.invoke(INIT_ELEM, Self::opt_expr)?];
                let loop_set = set(&[T::Comma]).with_epsilon();
                p.sync(199, SyncKind::Block, loop_set)?;
                while p.continues_list(OPT_EXPR_FIRST) {
                    p.expect(195, T::Comma, OPT_EXPR_FIRST)?;
                    elements.push(p.invoke(INIT_ELEM2, Self::opt_expr)?);
                    p.sync(201, SyncKind::LoopBack, loop_set)?;
                }
                Ok(elements)
            },
            |_| Vec::new(),
        )
    }

    /// `fieldInitializerList : optField ':' expr (',' optField ':' expr)*`
    fn field_initializer_list(&mut self) -> Result<Vec<StructField>, Abort> {
        let list_start = self.current_span();
        self.rule(
            Rule::FieldInitializerList,
            |p| {
                let mut fields = Vec::new();
                let loop_set = set(&[T::Comma]).with_epsilon();
                let mut sites = (FIELD_NAME, 203, FIELD_VALUE);
                loop {
                    let checkpoint = p.semantic_errors.len();
                    let (question, name) = p.invoke(sites.0, Self::opt_field)?;
                    let colon = p.expect(sites.1, T::Colon, EXPR_FIRST)?;
                    let id = p.ids.next();
                    let value = p.invoke(sites.2, Self::expr)?;
                    // cel-go skips a rejected field without looking at its value.
                    match (question, name.problem) {
                        (Some(q), _) if !p.opts.enable_optional_syntax => {
                            p.semantic_errors.truncate(checkpoint);
                            p.error_node(q.span, "unsupported syntax '?'");
                        }
                        (_, Some(problem)) => {
                            p.semantic_errors.truncate(checkpoint);
                            p.error_node(list_start, problem);
                        }
                        (_, None) => fields.push(StructField {
                            id,
                            span: colon.span,
                            name: name.name,
                            value,
                            optional: question.is_some(),
                        }),
                    }
                    p.sync(if sites.1 == 203 { 212 } else { 214 }, SyncKind::Block, loop_set)?;
                    if !p.continues_list(OPT_FIELD_FIRST) {
                        break;
                    }
                    p.expect(205, T::Comma, OPT_FIELD_FIRST)?;
                    sites = (FIELD_NAME2, 207, FIELD_VALUE2);
                }
                Ok(fields)
            },
            |_| Vec::new(),
        )
    }

    /// `optField : '?'? escapeIdent`
    fn opt_field(&mut self) -> Result<(Option<Tok>, FieldName), Abort> {
        let start = self.current_span();
        self.rule(
            Rule::OptField,
            |p| {
                p.sync(216, SyncKind::Block, OPT_FIELD_FIRST)?;
                let question = if p.la(1) == T::Question {
                    Some(p.expect(215, T::Question, IDENTS)?)
                } else {
                    None
                };
                let name = p.invoke(OPT_FIELD_IDENT, Self::escape_ident)?;
                Ok((question, name))
            },
            |_| {
                (
                    None,
                    FieldName {
                        name: String::new(),
                        span: start,
                        problem: Some(UNSUPPORTED_IDENT),
                    },
                )
            },
        )
    }

    /// `mapInitializerList : optExpr ':' expr (',' optExpr ':' expr)*`
    fn map_initializer_list(&mut self) -> Result<Vec<MapEntry>, Abort> {
        self.rule(
            Rule::MapInitializerList,
            |p| {
                let mut entries = Vec::new();
                let loop_set = set(&[T::Comma]).with_epsilon();
                let mut sites = (ENTRY_KEY, 221, ENTRY_VALUE);
                let mut first = true;
                loop {
                    // cel-go takes the entry's id (at the ':') before visiting the key.
                    let id = p.ids.next();
                    let checkpoint = p.semantic_errors.len();
                    let (question, key) = p.invoke(sites.0, Self::opt_expr)?;
                    let colon = p.expect(sites.1, T::Colon, EXPR_FIRST)?;
                    let value = p.invoke(sites.2, Self::expr)?;
                    match question {
                        Some(q) if !p.opts.enable_optional_syntax => {
                            p.semantic_errors.truncate(checkpoint);
                            p.error_node(q.span, "unsupported syntax '?'");
                        }
                        _ => entries.push(MapEntry {
                            id,
                            span: colon.span,
                            key,
                            value,
                            optional: question.is_some(),
                        }),
                    }
                    p.sync(if first { 230 } else { 232 }, SyncKind::Block, loop_set)?;
                    first = false;
                    if !p.continues_list(OPT_EXPR_FIRST) {
                        break;
                    }
                    p.expect(223, T::Comma, OPT_EXPR_FIRST)?;
                    sites = (ENTRY_KEY2, 225, ENTRY_VALUE2);
                }
                Ok(entries)
            },
            |_| Vec::new(),
        )
    }

    /// `escapeIdent : IDENTIFIER | ESC_IDENTIFIER`
    fn escape_ident(&mut self) -> Result<FieldName, Abort> {
        let start = self.current_span();
        self.rule(
            Rule::EscapeIdent,
            |p| {
                p.sync(235, SyncKind::Block, IDENTS)?;
                match p.la(1) {
                    T::Identifier => {
                        let t = p.expect(233, T::Identifier, EPS)?;
                        Ok(FieldName {
                            name: p.text(t.span).to_string(),
                            span: t.span,
                            problem: None,
                        })
                    }
                    T::EscIdentifier => {
                        let t = p.expect(234, T::EscIdentifier, EPS)?;
                        let text = p.text(t.span);
                        Ok(if p.opts.enable_ident_escape_syntax {
                            FieldName {
                                name: text[1..text.len() - 1].to_string(),
                                span: t.span,
                                problem: None,
                            }
                        } else {
                            FieldName {
                                name: String::new(),
                                span: t.span,
                                problem: Some("unsupported syntax: '`'"),
                            }
                        })
                    }
                    _ => Err(p.no_viable(1)),
                }
            },
            |_| FieldName {
                name: String::new(),
                span: start,
                problem: Some(UNSUPPORTED_IDENT),
            },
        )
    }

    /// `optExpr : '?'? expr`
    fn opt_expr(&mut self) -> Result<(Option<Tok>, Expr), Abort> {
        self.rule(
            Rule::OptExpr,
            |p| {
                p.sync(238, SyncKind::Block, OPT_EXPR_FIRST)?;
                let question = if p.la(1) == T::Question {
                    Some(p.expect(237, T::Question, EXPR_FIRST)?)
                } else {
                    None
                };
                let e = p.invoke(OPT_EXPR_EXPR, Self::expr)?;
                Ok((question, e))
            },
            |p| (None, p.placeholder()),
        )
    }

    /// `literal`: numbers (with an optional `-` for int and double), strings, bytes,
    /// booleans and null.
    fn literal(&mut self) -> Result<Expr, Abort> {
        self.rule(
            Rule::Literal,
            |p| {
                p.sync(256, SyncKind::Block, LITERAL_FIRST)?;
                let kind = match p.la(1) {
                    T::Minus => match p.la(2) {
                        k @ (T::NumInt | T::NumFloat) => k,
                        _ => return Err(p.no_viable(2)),
                    },
                    k if LITERAL_FIRST.contains(k) => k,
                    _ => return Err(p.no_viable(1)),
                };
                let (start, tok) = match kind {
                    T::NumInt | T::NumFloat => {
                        let (sync_state, sign_state, tok_state) = if kind == T::NumInt {
                            (243, 242, 245)
                        } else {
                            (248, 247, 250)
                        };
                        p.sync(sync_state, SyncKind::Block, set(&[T::Minus, kind]))?;
                        let sign = if p.la(1) == T::Minus {
                            Some(p.expect(sign_state, T::Minus, set(&[kind]))?)
                        } else {
                            None
                        };
                        let tok = p.expect(tok_state, kind, EPS)?;
                        (sign.map_or(tok.span.start, |s| s.span.start), tok)
                    }
                    _ => {
                        let state = match kind {
                            T::NumUint => 246,
                            T::String => 251,
                            T::Bytes => 252,
                            T::True => 253,
                            T::False => 254,
                            _ => 255,
                        };
                        let tok = p.expect(state, kind, EPS)?;
                        (tok.span.start, tok)
                    }
                };
                let span = Span::new(start, tok.span.end);
                Ok(p.literal_value(kind, span, tok.span))
            },
            Self::placeholder,
        )
    }

    /// Builds a literal node (cel-go's `VisitInt`, `VisitString`, ...), reporting
    /// malformed values at the literal's start.
    fn literal_value(&mut self, kind: T, span: Span, token: Span) -> Expr {
        let negative = span.start != token.start;
        let text = self.text(token);
        let value = match kind {
            T::NumInt => {
                let (digits, radix) = match text.strip_prefix("0x") {
                    Some(hex) => (hex, 16),
                    None => (text, 10),
                };
                let signed = if negative {
                    format!("-{digits}")
                } else {
                    digits.to_string()
                };
                match i64::from_str_radix(&signed, radix) {
                    Ok(v) => Literal::Int(v),
                    Err(_) => return self.error_node(span, "invalid int literal"),
                }
            }
            T::NumUint => {
                let body = &text[..text.len() - 1];
                let (digits, radix) = match body.strip_prefix("0x") {
                    Some(hex) => (hex, 16),
                    None => (body, 10),
                };
                match u64::from_str_radix(digits, radix) {
                    Ok(v) => Literal::Uint(v),
                    Err(_) => return self.error_node(span, "invalid uint literal"),
                }
            }
            T::NumFloat => {
                let signed = if negative { format!("-{text}") } else { text.to_string() };
                match signed.parse::<f64>() {
                    // Go's ParseFloat reports overflow to infinity as an error.
                    Ok(v) if v.is_finite() => Literal::Double(v),
                    _ => return self.error_node(span, "invalid double literal"),
                }
            }
            T::String | T::Bytes => {
                let is_bytes = kind == T::Bytes;
                let body = if is_bytes { &text[1..] } else { text };
                match lexer::unescape(body, is_bytes) {
                    Ok(bytes) if is_bytes => Literal::Bytes(bytes),
                    Ok(bytes) => match String::from_utf8(bytes) {
                        Ok(s) => Literal::String(s),
                        Err(_) => return self.error_node(span, "invalid unicode code point"),
                    },
                    Err(message) => return self.error_node(span, message),
                }
            }
            T::True => Literal::Bool(true),
            T::False => Literal::Bool(false),
            _ => Literal::Null,
        };
        self.node(span, ExprKind::Literal(value))
    }
}
