//! FIRST and FOLLOW sets of cel-go's grammar, and the rule invocation sites with what
//! may follow each of them. ANTLR's error messages list expected tokens computed from
//! these (in token-type order), and its recovery skips to them.

use crate::cel::lexer::{TokenKind as T, TokenSet};

pub(super) const fn set(kinds: &[T]) -> TokenSet {
    TokenSet::of(kinds)
}

pub(super) const LITERAL_FIRST: TokenSet = set(&[
    T::Minus,
    T::NumInt,
    T::NumUint,
    T::NumFloat,
    T::String,
    T::Bytes,
    T::True,
    T::False,
    T::Null,
]);
/// FIRST(primary) = FIRST(member).
pub(super) const PRIMARY_FIRST: TokenSet =
    LITERAL_FIRST.union(set(&[T::Dot, T::Identifier, T::LParen, T::LBracket, T::LBrace]));
/// FIRST(expr) = FIRST(unary).
pub(super) const EXPR_FIRST: TokenSet = PRIMARY_FIRST.union(set(&[T::Exclam]));
pub(super) const OPT_EXPR_FIRST: TokenSet = EXPR_FIRST.union(set(&[T::Question]));
pub(super) const IDENTS: TokenSet = set(&[T::Identifier, T::EscIdentifier]);
pub(super) const OPT_FIELD_FIRST: TokenSet = IDENTS.union(set(&[T::Question]));
pub(super) const REL_OPS: TokenSet = set(&[
    T::Equals,
    T::NotEquals,
    T::In,
    T::Less,
    T::LessEquals,
    T::GreaterEquals,
    T::Greater,
]);
pub(super) const MUL_OPS: TokenSet = set(&[T::Star, T::Slash, T::Percent]);
pub(super) const ADD_OPS: TokenSet = set(&[T::Plus, T::Minus]);
pub(super) const CALC_OPS: TokenSet = MUL_OPS.union(ADD_OPS);
pub(super) const POSTFIX: TokenSet = set(&[T::Dot, T::LBracket]);
pub(super) const EPS: TokenSet = TokenSet::EPSILON;

/// A rule invocation site: the ATN state of the call and what may follow the call
/// within the calling rule (with epsilon when the calling rule may end there).
#[derive(Clone, Copy, Debug)]
pub(super) struct Site {
    pub(super) state: u16,
    pub(super) follow: TokenSet,
}

const fn site(state: u16, follow: TokenSet) -> Site {
    Site { state, follow }
}

pub(super) const START_EXPR: Site = site(34, set(&[T::Eof]));
pub(super) const EXPR_COND: Site = site(37, set(&[T::Question]).with_epsilon());
pub(super) const EXPR_COND2: Site = site(39, set(&[T::Colon]));
pub(super) const EXPR_EXPR: Site = site(41, EPS);
pub(super) const OR_AND: Site = site(45, set(&[T::LogicalOr]).with_epsilon());
pub(super) const OR_AND2: Site = site(47, set(&[T::LogicalOr]).with_epsilon());
pub(super) const AND_REL: Site = site(53, set(&[T::LogicalAnd]).with_epsilon());
pub(super) const AND_REL2: Site = site(55, set(&[T::LogicalAnd]).with_epsilon());
pub(super) const REL_CALC: Site = site(62, REL_OPS.with_epsilon());
pub(super) const REL_REL: Site = site(66, REL_OPS.with_epsilon());
pub(super) const CALC_UNARY: Site = site(73, CALC_OPS.with_epsilon());
pub(super) const CALC_MUL: Site = site(77, CALC_OPS.with_epsilon());
pub(super) const CALC_ADD: Site = site(80, CALC_OPS.with_epsilon());
pub(super) const UNARY_MEMBER: Site = site(86, EPS);
pub(super) const NOT_MEMBER: Site = site(92, EPS);
pub(super) const NEG_MEMBER: Site = site(98, EPS);
pub(super) const MEMBER_PRIMARY: Site = site(102, POSTFIX.with_epsilon());
pub(super) const MEMBER_FIELD: Site = site(109, POSTFIX.with_epsilon());
pub(super) const MEMBER_ARGS: Site = site(114, set(&[T::RParen]));
pub(super) const MEMBER_INDEX: Site = site(123, set(&[T::RBracket]));
pub(super) const PRIMARY_ARGS: Site = site(140, set(&[T::RParen]));
pub(super) const PRIMARY_NESTED: Site = site(145, set(&[T::RParen]));
pub(super) const PRIMARY_LIST: Site = site(149, set(&[T::Comma, T::RBracket]));
pub(super) const PRIMARY_MAP: Site = site(157, set(&[T::Comma, T::RBrace]));
pub(super) const PRIMARY_FIELDS: Site = site(176, set(&[T::Comma, T::RBrace]));
pub(super) const PRIMARY_LITERAL: Site = site(183, EPS);
pub(super) const LIST_EXPR: Site = site(186, set(&[T::Comma]).with_epsilon());
pub(super) const LIST_EXPR2: Site = site(188, set(&[T::Comma]).with_epsilon());
pub(super) const INIT_ELEM: Site = site(194, set(&[T::Comma]).with_epsilon());
pub(super) const INIT_ELEM2: Site = site(196, set(&[T::Comma]).with_epsilon());
pub(super) const FIELD_NAME: Site = site(202, set(&[T::Colon]));
pub(super) const FIELD_NAME2: Site = site(206, set(&[T::Colon]));
pub(super) const FIELD_VALUE: Site = site(204, set(&[T::Comma]).with_epsilon());
pub(super) const FIELD_VALUE2: Site = site(208, set(&[T::Comma]).with_epsilon());
pub(super) const OPT_FIELD_IDENT: Site = site(218, EPS);
pub(super) const ENTRY_KEY: Site = site(220, set(&[T::Colon]));
pub(super) const ENTRY_KEY2: Site = site(224, set(&[T::Colon]));
pub(super) const ENTRY_VALUE: Site = site(222, set(&[T::Comma]).with_epsilon());
pub(super) const ENTRY_VALUE2: Site = site(226, set(&[T::Comma]).with_epsilon());
pub(super) const OPT_EXPR_EXPR: Site = site(240, EPS);
