/**
 * node:util parseArgs' words for a mistake on the command line, made safe to print: they never repeat a
 * value that was typed. parseArgs names an unexpected argument in full ("Unexpected argument 'x'"), and a
 * short option in a group by a letter of what follows it (`-kSECRET`: "Unknown option '-S'"); someone who
 * put a secret on the command line must not see it echoed into a terminal log or a CI transcript.
 */
export function describeArgsError(err: { code?: string; message: string }): string {
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = /Unknown option '([^']*)'/.exec(err.message)?.[1] ?? '';
      // A long option's name, before any `=value` (parseArgs never includes the value in it), when it reads
      // like one: lowercase words. Anything else (`--` followed by a secret, say) is not repeated.
      if (/^--[a-z]+(-[a-z]+)*$/.test(name) && name.length <= 40)
        return `unknown option ${name}${/key|secret|pin|pass|token/i.test(name) ? SECRET_HINT : ''}`;
      return 'unknown option (not repeated here): the commands take only the long options their usage lists (--help)';
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return (
        'unexpected argument (not repeated here, in case it is a secret): this command takes no more arguments. ' +
        'A secret is read from standard input or a hidden prompt, never from the command line.'
      );
    default:
      // "Option '--url <value>' argument missing", "Option '--json' does not take an argument": names only.
      return err.message;
  }
}

const SECRET_HINT =
  ': a secret is never taken from the command line (ps and the shell history show it); give it on standard ' +
  'input (--app-key-stdin, --signing-secret-stdin, --stdin, --pin-stdin) or type it at the hidden prompt';
