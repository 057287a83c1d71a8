import { RE2JS, RE2JSException } from 're2js';

// A regular expression a user wrote (`svc emails wait --subject-match`, MCP's `emails_wait`), run on
// text it did not choose. JavaScript's RegExp backtracks: `^(a+)+$` on 27 `a`s and a `!` holds the
// event loop for seconds, and no timer can fire meanwhile. RE2 matches in time linear in the text,
// whatever the pattern. Its syntax is Perl's without lookarounds and backreferences: a pattern that
// needs them is refused here, named, rather than run with backtracking. Every user-supplied pattern,
// in the CLI and the service alike, goes through this module.

export interface UserPattern {
  /** As written. */
  readonly source: string;
  /** Somewhere in `text` (unanchored, as RegExp's `test`). */
  test(text: string): boolean;
}

/** A pattern RE2 does not accept; `message` says why, in RE2's words. */
export class UserPatternError extends Error {
  override name = 'UserPatternError';
}

export function compileUserPattern(source: string): UserPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    const why = err.message.replace(/^error parsing regexp: /, '');
    throw new UserPatternError(`${why} (RE2 syntax: no lookarounds or backreferences)`);
  }
  return { source, test: (text) => re.matcher(text).find() };
}
