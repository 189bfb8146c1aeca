//! The token stream and ANTLR's error strategy, as cel-go's parser uses them.
//!
//! This is ANTLR's `DefaultErrorStrategy` (with cel-go's limits on recovery attempts
//! and skipped tokens): a mismatched token is deleted if the next one fits, or a
//! missing one is assumed if the current one could follow it; otherwise the current
//! rule gives up, reports the error, and input is skipped up to a token that may
//! follow one of the rules being parsed. After an error, nothing is reported until a
//! token is matched again. Lexer errors are reported when the parser first looks at
//! the token after them, as ANTLR's lazy lexing does.

use super::Parser;
use super::sets::set;
use crate::cel::ast::Span;
use crate::cel::errors::CelError;
use crate::cel::lexer::{self, Token, TokenKind as T, TokenSet};

/// Parsing stopped (limit exceeded); the error was recorded.
#[derive(Debug)]
pub(super) struct Abort;

/// A recognition error that makes the current rule give up (ANTLR's exceptions).
#[derive(Debug)]
pub(super) enum Recognition {
    /// `mismatched input X expecting Y` at the token with visible index `at`.
    Mismatch { at: usize, expected: TokenSet },
    /// `no viable alternative at input '…'`: prediction started at `start` and
    /// failed at `at`.
    NoViableAlt { start: usize, at: usize },
}

#[derive(Debug)]
pub(super) enum Fail {
    Recognition(Recognition),
    Abort(Abort),
}

impl From<Abort> for Fail {
    fn from(a: Abort) -> Fail {
        Fail::Abort(a)
    }
}

impl From<Recognition> for Fail {
    fn from(r: Recognition) -> Fail {
        Fail::Recognition(r)
    }
}

pub(super) type PResult<T> = Result<T, Fail>;

/// The kinds of ANTLR `sync` points that can report errors.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SyncKind {
    /// Block starts and loop entries: delete one token or fail the rule.
    Block,
    /// Loop backs: report the token and skip to what may follow.
    LoopBack,
}

/// A matched (or, after a reported error, conjured) token.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tok {
    pub(super) span: Span,
}

impl Parser<'_> {
    pub(super) fn last(&self) -> usize {
        self.visible.len() - 1
    }

    pub(super) fn token(&self, index: usize) -> Token {
        self.tokens[self.visible[index.min(self.last())]]
    }

    /// Reports the lexer errors ANTLR's lexer would have reported by the time the
    /// parser looks at visible token `index`.
    pub(super) fn fetch(&mut self, index: usize) {
        while let Some((trigger, _)) = self.lex_errors.get(self.lex_reported) {
            if *trigger > index {
                break;
            }
            let (_, e) = &self.lex_errors[self.lex_reported];
            let (start, message) = (e.start, e.message());
            self.lex_reported += 1;
            self.syntax_error(start, message);
        }
    }

    /// Kind of the `k`-th token ahead (1-based), `Eof` past the end.
    pub(super) fn la(&mut self, k: usize) -> T {
        let index = (self.pos + k - 1).min(self.last());
        self.fetch(index);
        self.token(index).kind
    }

    pub(super) fn current_span(&self) -> Span {
        let t = self.token(self.pos);
        Span::new(t.start, t.end)
    }

    pub(super) fn consume(&mut self) {
        if self.pos < self.last() {
            self.pos += 1;
        }
        self.fetch(self.pos);
    }

    /// ANTLR's `GetTokenErrorDisplay`.
    pub(super) fn token_display(&self, index: usize) -> String {
        let t = self.token(index);
        if t.kind == T::Eof {
            return "'<EOF>'".to_string();
        }
        format!("'{}'", lexer::escape_for_display(t.text(self.src)))
    }

    // -----------------------------------------------------------------------------
    // Error reporting

    /// Reports a syntax error (ANTLR listener), counting towards the reporting limit.
    pub(super) fn syntax_error(&mut self, offset: usize, message: String) {
        if self.aborted {
            return;
        }
        if self.syntax_reports < self.opts.error_reporting_limit {
            self.syntax_reports += 1;
            self.syntax_errors
                .push(CelError::at(self.source, offset, 0, format!("Syntax error: {message}")));
        } else {
            let message = format!(
                "Syntax error: More than {} syntax errors",
                self.opts.error_reporting_limit
            );
            self.syntax_errors.push(CelError::at(self.source, offset, 0, message));
            self.aborted = true;
        }
    }

    pub(super) fn syntax_error_at_token(&mut self, index: usize, message: String) {
        let offset = self.token(index).start;
        self.syntax_error(offset, message);
    }

    /// An error about the whole expression that stops parsing.
    pub(super) fn internal_error(&mut self, message: String) -> Abort {
        if !self.aborted {
            self.syntax_errors.push(CelError::without_location(message));
        }
        self.aborted = true;
        Abort
    }

    pub(super) fn check_abort(&self) -> Result<(), Abort> {
        if self.aborted { Err(Abort) } else { Ok(()) }
    }

    /// Tokens expected at a point whose local FIRST set is `local` (ANTLR's
    /// `getExpectedTokens`): when the rule may end there, add what may follow each
    /// enclosing rule invocation, and `EOF` past the outermost.
    pub(super) fn expected(&self, local: TokenSet) -> TokenSet {
        let mut expected = local.without_epsilon();
        let mut following = local;
        for site in self.stack.iter().rev() {
            if !following.has_epsilon() {
                break;
            }
            following = site.follow;
            expected = expected.union(following.without_epsilon());
        }
        if following.has_epsilon() {
            expected = expected.union(set(&[T::Eof]));
        }
        expected
    }

    /// Everything that may follow any rule being parsed (ANTLR's error recovery set).
    pub(super) fn recovery_set(&self) -> TokenSet {
        self.stack
            .iter()
            .fold(TokenSet::EMPTY, |acc, s| acc.union(s.follow))
            .without_epsilon()
    }

    pub(super) fn begin_error(&mut self) {
        self.recovering = true;
    }

    /// A token was matched: leave recovery mode (ANTLR's `ReportMatch`).
    pub(super) fn end_error(&mut self) {
        self.recovering = false;
        self.last_error_states.clear();
        self.last_error_index = None;
    }

    pub(super) fn report_unwanted_token(&mut self, local: TokenSet) {
        if self.recovering {
            return;
        }
        self.begin_error();
        let message = format!(
            "extraneous input {} expecting {}",
            self.token_display(self.pos),
            self.expected(local)
        );
        self.syntax_error_at_token(self.pos, message);
    }

    pub(super) fn report_missing_token(&mut self, local: TokenSet) {
        if self.recovering {
            return;
        }
        self.begin_error();
        let message = format!("missing {} at {}", self.expected(local), self.token_display(self.pos));
        self.syntax_error_at_token(self.pos, message);
    }

    /// ANTLR's `ReportError` for a failed rule.
    pub(super) fn report_recognition(&mut self, error: &Recognition) {
        if self.recovering {
            return;
        }
        self.begin_error();
        match *error {
            Recognition::Mismatch { at, expected } => {
                let message = format!("mismatched input {} expecting {}", self.token_display(at), expected);
                self.syntax_error_at_token(at, message);
            }
            Recognition::NoViableAlt { start, at } => {
                let input = if self.token(start).kind == T::Eof {
                    "<EOF>".to_string()
                } else {
                    // The text of all tokens from `start` to `at`, hidden ones included.
                    let (from, to) = (self.visible[start.min(self.last())], self.visible[at.min(self.last())]);
                    self.tokens[from..=to.max(from)]
                        .iter()
                        .filter(|t| t.kind != T::Eof)
                        .map(|t| t.text(self.src))
                        .collect()
                };
                let mut message = format!("no viable alternative at input '{}'", lexer::escape_for_display(&input));
                // cel-go rewrites this message for reserved words after a dot, to keep
                // the message older versions gave (`self.true`).
                let mut chars = input.chars();
                if chars.next().is_some() && matches!(chars.as_str(), "true" | "false" | "null") {
                    message = format!("mismatched input '{}' expecting IDENTIFIER", chars.as_str());
                }
                self.syntax_error_at_token(at, message);
            }
        }
    }

    /// Counts a recovery attempt (cel-go's `recoveryLimitErrorStrategy`).
    pub(super) fn check_recovery_attempts(&mut self) -> Result<(), Abort> {
        if self.recovery_attempts == self.opts.error_recovery_limit {
            self.recovery_attempts += 1;
            let message = format!(
                "error recovery attempt limit exceeded: {}",
                self.opts.error_recovery_limit
            );
            self.syntax_error_at_token(self.pos, message);
            self.aborted = true;
            return Err(Abort);
        }
        self.recovery_attempts += 1;
        self.recovery_consumed = 0;
        Ok(())
    }

    /// A consume during recovery, limited by cel-go's lookahead limit.
    pub(super) fn recovery_consume(&mut self) -> Result<(), Abort> {
        let limit = self.opts.error_recovery_lookahead_token_limit;
        if self.recovery_consumed >= limit {
            return Err(self.internal_error(format!("error recovery token lookahead limit exceeded: {limit}")));
        }
        self.recovery_consumed += 1;
        self.consume();
        Ok(())
    }

    pub(super) fn consume_until(&mut self, stop: TokenSet, counted: bool) -> Result<(), Abort> {
        loop {
            let la = self.la(1);
            if la == T::Eof || stop.contains(la) {
                return Ok(());
            }
            if counted {
                self.recovery_consume()?;
            } else {
                self.consume();
            }
        }
    }

    /// ANTLR's `Recover` after a rule failed: skip to the recovery set.
    pub(super) fn recover(&mut self) -> Result<(), Abort> {
        self.check_recovery_attempts()?;
        if self.last_error_index == Some(self.pos) && self.last_error_states.contains(&self.state) {
            // Another error at the same place in the same state: skip a token to make
            // progress.
            self.recovery_consume()?;
        }
        self.last_error_index = Some(self.pos);
        self.last_error_states.push(self.state);
        let stop = self.recovery_set();
        self.consume_until(stop, true)
    }

    /// Deletes the current token if the next one is what is expected.
    pub(super) fn single_token_deletion(&mut self, local: TokenSet, counted: bool) -> Result<bool, Abort> {
        let next = self.la(2);
        if !self.expected(local).contains(next) {
            return Ok(false);
        }
        self.report_unwanted_token(local);
        if counted {
            self.recovery_consume()?;
        } else {
            self.consume();
        }
        self.end_error();
        Ok(true)
    }

    /// ANTLR's `Sync` at a decision point.
    pub(super) fn sync(&mut self, state: u16, kind: SyncKind, local: TokenSet) -> PResult<()> {
        self.state = state;
        if self.recovering {
            return Ok(());
        }
        let la = self.la(1);
        if local.has_epsilon() || local.contains(la) {
            return Ok(());
        }
        match kind {
            SyncKind::Block => {
                if self.single_token_deletion(local, false)? {
                    return Ok(());
                }
                Err(Recognition::Mismatch {
                    at: self.pos,
                    expected: self.expected(local),
                }
                .into())
            }
            SyncKind::LoopBack => {
                self.report_unwanted_token(local);
                let stop = self.expected(local).union(self.recovery_set());
                self.consume_until(stop, false)?;
                Ok(())
            }
        }
    }

    /// Matches a token of `kind` at `state`; `after` is what may follow it locally.
    /// On a mismatch, tries ANTLR's single-token deletion and insertion.
    pub(super) fn expect(&mut self, state: u16, kind: T, after: TokenSet) -> PResult<Tok> {
        self.state = state;
        if self.la(1) == kind {
            self.end_error();
            let span = self.current_span();
            self.consume();
            return Ok(Tok { span });
        }
        self.check_recovery_attempts()?;
        let local = set(&[kind]);
        if self.single_token_deletion(local, true)? {
            let span = self.current_span();
            self.recovery_consume()?;
            return Ok(Tok { span });
        }
        // Single-token insertion: the current token could follow the missing one.
        if self.expected(after).contains(self.la(1)) {
            self.report_missing_token(local);
            let mut at = self.token(self.pos);
            if at.kind == T::Eof && self.pos > 0 {
                at = self.token(self.pos - 1);
            }
            return Ok(Tok {
                span: Span::at(at.start),
            });
        }
        Err(Recognition::Mismatch {
            at: self.pos,
            expected: self.expected(local),
        }
        .into())
    }

    /// Consumes an operator token chosen by a decision.
    pub(super) fn take(&mut self, state: u16) -> Tok {
        self.state = state;
        self.end_error();
        let span = self.current_span();
        self.consume();
        Tok { span }
    }

    /// A prediction that failed at lookahead token `lookahead` (1-based).
    pub(super) fn no_viable_alt(&self, lookahead: usize) -> Recognition {
        Recognition::NoViableAlt {
            start: self.pos,
            at: (self.pos + lookahead - 1).min(self.last()),
        }
    }

    pub(super) fn no_viable(&self, lookahead: usize) -> Fail {
        self.no_viable_alt(lookahead).into()
    }
}
