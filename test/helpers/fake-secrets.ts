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
