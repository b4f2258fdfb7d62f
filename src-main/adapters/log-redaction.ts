/**
 * What never reaches Loket's log file: the secrets this process holds (the appkey and signing secret read from the
 * keychain or the environment, browser mode's access token and display key), and anything that looks like a
 * secret by its name (a token, key, appkey, secret, PIN or password field; a bearer token). The log's lines come
 * from error messages and stack traces, which are not written with secrets in mind, so every line passes here.
 */

const REDACTED = '[redacted]';
/** Shorter values are not remembered: cutting every "1234" out of the log would hide more than it protects. */
const MIN_SECRET_LENGTH = 6;

const remembered = new Set<string>();

/** A value that must never be written to the log, for the life of this process. */
export function rememberSecret(value: string | null | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) remembered.add(value);
}

const NAMES = `(?:${[
  String.raw`access[_-]?token`,
  'token',
  String.raw`display[_-]?key`,
  'key',
  String.raw`app[_-]?key`,
  String.raw`signing[_-]?secret`,
  'secret',
  'pin',
  String.raw`new[_-]?pin`,
  'password',
  'authorization',
  'bodysign',
].join('|')})`;
const PATTERNS: [RegExp, string][] = [
  // Query strings, form bodies, URL fragments: token=…, key=…, appkey=…
  [new RegExp(String.raw`([?&#;\s]${NAMES}=)[^&#\s"'<>]+`, 'gi'), `$1${REDACTED}`],
  [new RegExp(String.raw`^(${NAMES}=)[^&#\s"'<>]+`, 'gi'), `$1${REDACTED}`],
  // JSON ("pin":"1234") and util.inspect ({ pin: '1234' }) of an object with such a field.
  [new RegExp(String.raw`("${NAMES}"\s*:\s*)"(?:[^"\\]|\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  [new RegExp(String.raw`(\b${NAMES}\s*:\s*)'(?:[^'\\]|\\.)*'`, 'gi'), `$1'${REDACTED}'`],
  // Authorization headers.
  [/(\bBearer\s+)[^\s"',]+/gi, `$1${REDACTED}`],
];

/** `text` with every remembered secret and every secret-looking field's value replaced by [redacted]. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of remembered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
