/**
 * Realistic fake API keys and tokens for the redaction tests, built at test time by concatenation from a
 * seeded generator, so the repository holds no literal that a secret scanner would flag.
 */
import { createHash } from 'node:crypto';

/** Deterministic random characters from an alphabet (seeded, so failures reproduce). */
export function chars(alphabet: string, n: number, seed: string): string {
  let out = '';
  let block = Buffer.alloc(0);
  let counter = 0;
  while (out.length < n) {
    if (block.length === 0) block = createHash('sha256').update(`${seed}:${counter++}`).digest();
    out += alphabet[block[0] % alphabet.length];
    block = block.subarray(1);
  }
  return out;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}_-`;
export const B64 = `${ALNUM}+/`;
export const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Fake keys, each built from its parts. */
export const FAKE = {
  anthropic: ['sk', 'ant', 'api03', `${chars(URLSAFE, 93, 'ant')}AA`].join('-'),
  openai: ['sk', 'proj', chars(URLSAFE, 156, 'oai')].join('-'),
  openaiLegacy: `sk-${chars(ALNUM, 20, 'oa1')}T3BlbkFJ${chars(ALNUM, 20, 'oa2')}`,
  openrouter: ['sk', 'or', 'v1', chars('0123456789abcdef', 64, 'or')].join('-'),
  google: `AIzaSy${chars(URLSAFE, 33, 'goog')}`,
  googleOauth: `ya29.${chars(URLSAFE, 120, 'ya29')}`,
  awsId: `AKIA${chars(`${UPPER}234567`, 16, 'aws')}`,
  awsSecret: chars(B64, 40, 'awssecret'),
  github: `ghp_${chars(ALNUM, 36, 'ghp')}`,
  githubFine: `github_pat_${chars(ALNUM, 22, 'ghf1')}_${chars(ALNUM, 59, 'ghf2')}`,
  gitlab: `glpat-${chars(URLSAFE, 20, 'glpat')}`,
  slack: ['xo' + 'xb', chars(DIGITS, 12, 's1'), chars(DIGITS, 13, 's2'), chars(ALNUM, 24, 's3')].join('-'),
  slackWebhook:
    'https://hooks.slack.com/services/' +
    'T' +
    chars(UPPER + DIGITS, 8, 'w1') +
    '/B' +
    chars(UPPER + DIGITS, 10, 'w2') +
    '/' +
    chars(ALNUM, 24, 'w3'),
  jwt: [
    b64url('{"alg":"HS256","typ":"JWT"}'),
    b64url(`{"sub":"${chars(DIGITS, 10, 'sub')}","name":"Jane Doe","iat":1516239022}`),
    chars(URLSAFE, 43, 'sig'),
  ].join('.'),
  bearer: chars(ALNUM, 40, 'bearer'),
  privateKey:
    '-----BEGIN ' +
    'RSA PRIVATE KEY-----\n' +
    Array.from({ length: 6 }, (_, i) => chars(B64, 64, `pem${i}`)).join('\n') +
    '\n-----END ' +
    'RSA PRIVATE KEY-----',
  assignment: chars(ALNUM, 24, 'assign'),
};

/**
 * Shapes the first redaction missed (issue 9 point 7), built the same way: values that start with a
 * placeholder word, AWS secret keys that start with `/` or `+`, a password holding an escaped quote.
 */
export const FAKE_MISSED = {
  /** `Password3754!`: a placeholder word, then digits and a symbol. */
  passwordWord: `Password${chars(DIGITS, 4, 'pw1')}!`,
  /** `Testing66337#Q`. */
  testingWord: `Testing${chars(DIGITS, 5, 'pw2')}#Q`,
  /** `SecretQU8eqT$`. */
  secretWord: `SecretQU${chars(DIGITS, 1, 'pw3')}eqT$`,
  awsSecretSlash: `/${chars(B64, 39, 'awsslash')}`,
  awsSecretPlus: `+${chars(B64, 39, 'awsplus')}`,
  /** A password with a double quote inside; its JSON form escapes it. */
  quotedPassword: `${chars(ALNUM, 10, 'q1')}"${chars(ALNUM, 6, 'q2')}!`,
};

/** A secret planted in a text: what it tests, its kind, the value redaction fingerprints, and the line holding it. */
export interface Planted {
  what: string;
  kind: string;
  secret: string;
  line: string;
  /** The environment variable it is the value of, for an environment dump (`{"NAME":"value",...}`). */
  env?: string;
}

const HEX = '0123456789abcdef';

/**
 * The shapes issue 24 found in clear (points 2 and 3), built from `seed` so that every place planted gets
 * its own values: tokens glued to a word by `-`, `_`, `.` or `/` (also in a file name), environment-style
 * names without a known suffix (`*_KEY`, `*_AUTH*`), and known prefixes under names that say nothing.
 */
export function issue24Secrets(seed: string): Planted[] {
  const c = (alphabet: string, n: number, id: string) => chars(alphabet, n, `${seed}:${id}`);
  const gh = (prefix: string, id: string) => `${prefix}_${c(ALNUM, 36, id)}`;
  const uuid = [c(HEX, 8, 'u1'), c(HEX, 4, 'u2'), `4${c(HEX, 3, 'u3')}`, `a${c(HEX, 3, 'u4')}`, c(HEX, 12, 'u5')].join('-');
  const glued = (what: string, kind: string, secret: string, line: string): Planted => ({ what, kind, secret, line });
  const env = (what: string, kind: string, name: string, secret: string): Planted => ({
    what,
    kind,
    secret,
    line: `${name}=${secret}`,
    env: name,
  });
  const ghp1 = gh('ghp', 'g1');
  const ghp2 = gh('ghp', 'g2');
  const openai = ['sk', 'proj', c(URLSAFE, 156, 'oai')].join('-');
  const slack = ['xo' + 'xb', c(DIGITS, 12, 's1'), c(DIGITS, 13, 's2'), c(ALNUM, 24, 's3')].join('-');
  const gho = gh('gho', 'g3');
  const pat = `github_pat_${c(ALNUM, 22, 'p1')}_${c(ALNUM, 59, 'p2')}`;
  const anthropic = ['sk', 'ant', 'api03', `${c(URLSAFE, 93, 'ant')}AA`].join('-');
  return [
    glued('a token alone on its line (after an escaped line end in JSON text)', 'anthropic', anthropic, anthropic),
    glued('ghp_ after a word and -', 'github', ghp1, `mytoken-${ghp1}`),
    glued('ghp_ after a word and _', 'github', ghp2, `export MYTOKEN_${ghp2}`),
    glued('sk-proj- after a word and -', 'openai', openai, `curl -d key-${openai} https://api.example.com`),
    glued('xoxb- after a word and -', 'slack', slack, `bot-${slack}`),
    glued('gho_ in a file name', 'github', gho, `saved token-${gho}.txt`),
    glued('github_pat_ after /', 'github', pat, `pats/${pat}`),
    env('AZURE_OPENAI_KEY (32 hex)', 'assignment', 'AZURE_OPENAI_KEY', c(HEX, 32, 'az')),
    env('OPENAI_KEY', 'assignment', 'OPENAI_KEY', c(ALNUM, 40, 'ok')),
    env('DEEPL_AUTH_KEY (a UUID and :fx)', 'assignment', 'DEEPL_AUTH_KEY', `${uuid}:fx`),
    env(
      'NPM_AUTH (base64 of user:password)',
      'assignment',
      'NPM_AUTH',
      Buffer.from(`ci-bot:${c(ALNUM, 20, 'na')}`).toString('base64'),
    ),
    env('npm_ under a name without a suffix', 'npm', 'REGISTRY', `npm_${c(ALNUM, 36, 'npm')}`),
    env('hf_ under a name without a suffix', 'huggingface', 'HUB_USER', `hf_${c(UPPER + LOWER, 34, 'hf')}`),
    env('glpat- under a name without a suffix', 'gitlab', 'GL_HOST', `glpat-${c(URLSAFE, 20, 'gl')}`),
    env('sk- and 32 hex (DeepSeek)', 'openai', 'DS_BASE', `sk-${c(HEX, 32, 'ds')}`),
    env('AIza under a name without a suffix', 'google', 'MAPS', `AIzaSy${c(URLSAFE, 33, 'goog')}`),
    env('ghs_ under a name without a suffix', 'github', 'CI_APP', gh('ghs', 'g4')),
    env('xoxp- under a name without a suffix', 'slack', 'CHAT', ['xo' + 'xp', c(DIGITS, 12, 'x1'), c(ALNUM, 32, 'x2')].join('-')),
    env('gsk_ (Groq)', 'groq', 'LLM_A', `gsk_${c(ALNUM, 52, 'groq')}`),
    env('xai- (xAI)', 'xai', 'LLM_B', `xai-${c(ALNUM, 80, 'xai')}`),
    env('r8_ (Replicate)', 'replicate', 'LLM_C', `r8_${c(ALNUM, 37, 'r8')}`),
  ];
}
