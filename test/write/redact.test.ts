/**
 * write/redact.ts: every detector on a realistic fake key, and texts that look secret-ish but are not.
 * Fake keys come from test/helpers/fake-secrets.ts, built at test time, so the repository holds no literal
 * that a secret scanner would flag.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redact, secretFingerprint } from '../../src/write/redact.js';
import { B64, chars, FAKE, FAKE_MISSED, issue24Secrets } from '../helpers/fake-secrets.js';
import { fixture } from '../helpers/source.js';

/** The single hit of a text, and the redacted text. */
function one(text: string): { kind: string; fingerprint: string; out: string } {
  const r = redact(text);
  expect(r.hits, `hits in ${JSON.stringify(text.slice(0, 80))}`).toHaveLength(1);
  return { ...r.hits[0], out: r.text };
}

describe('redact: each detector finds its secret and keeps the text around it', () => {
  const cases: Array<[string, string, string, string]> = [
    // [name, text, kind, secret]
    ['Anthropic', `export ANTHROPIC_KEY_COPY ${FAKE.anthropic} # old`, 'anthropic', FAKE.anthropic],
    ['OpenAI project key', `curl -H "x: ${FAKE.openai}" https://api.openai.com`, 'openai', FAKE.openai],
    ['OpenAI legacy key', `key ${FAKE.openaiLegacy}.`, 'openai', FAKE.openaiLegacy],
    ['OpenRouter', `using ${FAKE.openrouter} for routing`, 'openrouter', FAKE.openrouter],
    ['Google API key', `maps?key=${FAKE.google}&q=x`, 'google', FAKE.google],
    ['Google OAuth token', `token ya ${FAKE.googleOauth} end`, 'google', FAKE.googleOauth],
    ['AWS access key id', `AccessKeyId ${FAKE.awsId} in use`, 'aws_access_key_id', FAKE.awsId],
    ['AWS secret key (ini)', `[default]\naws_secret_access_key = ${FAKE.awsSecret}\n`, 'aws_secret_key', FAKE.awsSecret],
    ['AWS secret key (JSON)', `{"SecretAccessKey": "${FAKE.awsSecret}", "Expiration": "2025"}`, 'aws_secret_key', FAKE.awsSecret],
    ['GitHub classic', `git clone https://${FAKE.github}@github.com/o/r`, 'github', FAKE.github],
    ['GitHub fine-grained', `pat: ${FAKE.githubFine}`, 'github', FAKE.githubFine],
    ['GitLab', `glab auth login ${FAKE.gitlab}`, 'gitlab', FAKE.gitlab],
    ['Slack token', `slack ${FAKE.slack} ok`, 'slack', FAKE.slack],
    ['Slack webhook', `post to ${FAKE.slackWebhook} now`, 'slack', FAKE.slackWebhook],
    ['JWT', `cookie session=${FAKE.jwt}; Path=/`, 'jwt', FAKE.jwt],
    ['Bearer header', `Authorization: Bearer ${FAKE.bearer}\r\n`, 'bearer', FAKE.bearer],
    ['private key block', `here:\n${FAKE.privateKey}\nthanks`, 'private_key', FAKE.privateKey],
    ['KEY=value', `DB_PASSWORD=${FAKE.assignment}\nPORT=5432`, 'assignment', FAKE.assignment],
    ['"apiKey": "..."', `{"apiKey": "${FAKE.assignment}", "model": "x"}`, 'assignment', FAKE.assignment],
    ['escaped JSON in a tool output', `{\\"client_secret\\": \\"${FAKE.assignment}\\"}`, 'assignment', FAKE.assignment],
  ];
  for (const [name, text, kind, secret] of cases) {
    it(name, () => {
      const hit = one(text);
      expect(hit.kind).toBe(kind);
      expect(hit.fingerprint).toBe(createHash('sha256').update(secret).digest('hex').slice(0, 12));
      expect(hit.out).toBe(text.replace(secret, `[REDACTED:${kind}:${hit.fingerprint}]`));
      expect(hit.out).not.toContain(secret.slice(-12));
    });
  }

  it('a known token in an assignment keeps its own kind and fingerprint', () => {
    const r = redact(`OPENAI_API_KEY=${FAKE.openai}\nGITHUB_TOKEN="${FAKE.github}"\nAuthorization: Bearer ${FAKE.jwt}`);
    expect(r.hits.map((h) => h.kind)).toEqual(['openai', 'github', 'jwt']);
    expect(r.hits.map((h) => h.fingerprint)).toEqual([FAKE.openai, FAKE.github, FAKE.jwt].map(secretFingerprint));
    expect(r.text).toBe(
      `OPENAI_API_KEY=[REDACTED:openai:${secretFingerprint(FAKE.openai)}]\nGITHUB_TOKEN="[REDACTED:github:${secretFingerprint(FAKE.github)}]"\n` +
        `Authorization: Bearer [REDACTED:jwt:${secretFingerprint(FAKE.jwt)}]`,
    );
  });

  it('the same secret gives the same marker everywhere; a text is idempotent under redaction', () => {
    const a = redact(`first ${FAKE.anthropic}`).text;
    const b = redact(`{"k":"${FAKE.anthropic}"}`).text;
    const m = `[REDACTED:anthropic:${secretFingerprint(FAKE.anthropic)}]`;
    expect(a).toBe(`first ${m}`);
    expect(b).toBe(`{"k":"${m}"}`);
    expect(redact(a)).toEqual({ text: a, hits: [] });
  });

  it('a private key block cut before its END line is still redacted', () => {
    const cut = FAKE.privateKey.split('\n').slice(0, 4).join('\n');
    const r = redact(`${cut}\n[output truncated]`);
    expect(r.hits.map((h) => h.kind)).toEqual(['private_key']);
    expect(r.text).toBe(`[REDACTED:private_key:${secretFingerprint(cut)}]\n[output truncated]`);
  });
});

describe('redact: the misses of issue 9 point 7', () => {
  const m = (kind: string, secret: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
  /** [name, text, kind, the secret as fingerprinted, the text the marker replaces (default: the secret)] */
  const cases: Array<[string, string, string, string, string?]> = [
    [
      'DB_PASSWORD=<placeholder word + digits and a symbol>',
      `DB_PASSWORD=${FAKE_MISSED.passwordWord}\nPORT=5432`,
      'assignment',
      FAKE_MISSED.passwordWord,
    ],
    ['password: <Testing...#Q>', `password: ${FAKE_MISSED.testingWord}\nuser: bob`, 'assignment', FAKE_MISSED.testingWord],
    ['api_key=<Secret...$>', `api_key=${FAKE_MISSED.secretWord} ./run.sh`, 'assignment', FAKE_MISSED.secretWord],
    [
      '"token": "<Password...!>" in JSON',
      `{"token": "${FAKE_MISSED.passwordWord}", "n": 1}`,
      'assignment',
      FAKE_MISSED.passwordWord,
    ],
    [
      'AWS secret key starting with /',
      `aws_secret_access_key = ${FAKE_MISSED.awsSecretSlash}\n`,
      'aws_secret_key',
      FAKE_MISSED.awsSecretSlash,
    ],
    [
      'AWS secret key starting with + (JSON)',
      `{"SecretAccessKey": "${FAKE_MISSED.awsSecretPlus}"}`,
      'aws_secret_key',
      FAKE_MISSED.awsSecretPlus,
    ],
    [
      'a password with an escaped quote in a JSON string',
      `{"password": ${JSON.stringify(FAKE_MISSED.quotedPassword)}, "user": "bob"}`,
      'assignment',
      FAKE_MISSED.quotedPassword,
      JSON.stringify(FAKE_MISSED.quotedPassword).slice(1, -1),
    ],
    [
      'a password with an escaped quote in JSON inside a JSON string',
      JSON.stringify(JSON.stringify({ db_password: FAKE_MISSED.quotedPassword, user: 'bob' })),
      'assignment',
      FAKE_MISSED.quotedPassword,
      JSON.stringify(JSON.stringify(FAKE_MISSED.quotedPassword)).slice(3, -3),
    ],
    [
      'a cut PEM whose line ends are JSON-escaped \\r\\n',
      `{"output":"${FAKE.privateKey.split('\n').slice(0, 4).join('\\r\\n')}\\r\\n[truncated]"}`,
      'private_key',
      FAKE.privateKey.split('\n').slice(0, 4).join('\\r\\n'),
    ],
    [
      'sk\\u002dant-... (a JSON escape hides the dash)',
      `{"k":"${FAKE.anthropic.replace('-', '\\u002d')}"}`,
      'anthropic',
      FAKE.anthropic,
      FAKE.anthropic.replace('-', '\\u002d'),
    ],
    [
      '\\u0073k-ant-... (the first letter escaped)',
      `key \\u0073${FAKE.anthropic.slice(1)} end`,
      'anthropic',
      FAKE.anthropic,
      `\\u0073${FAKE.anthropic.slice(1)}`,
    ],
    ['an escaped space glued to a token (\\u0020sk-ant-...)', `echo \\u0020${FAKE.anthropic}`, 'anthropic', FAKE.anthropic],
    [
      'a double-encoded sk\\\\u002dant-...',
      JSON.stringify({ k: FAKE.anthropic.replace('-', '\\u002d') }),
      'anthropic',
      FAKE.anthropic,
      FAKE.anthropic.replace('-', '\\\\u002d'),
    ],
  ];
  for (const [name, text, kind, secret, shown = secret] of cases) {
    it(name, () => {
      expect(text).toContain(shown);
      const hit = one(text);
      expect(hit.kind).toBe(kind);
      expect(hit.fingerprint).toBe(secretFingerprint(secret));
      expect(hit.out).toBe(text.replace(shown, m(kind, secret)));
    });
  }

  it('a value hidden by escapes is redacted next to a clear one, each with its own marker', () => {
    const hidden = FAKE.github.replace('_', '\\u005f');
    const r = redact(`a=${hidden} b=${FAKE.openai}`);
    expect(r.text).toBe(`a=${m('github', FAKE.github)} b=${m('openai', FAKE.openai)}`);
    expect(r.hits.map((h) => h.kind).sort()).toEqual(['github', 'openai']);
  });

  it('an escaped text without a secret is kept as it is', () => {
    const text = '{"msg":"caf\\u00e9 \\u2014 done","path":"C:\\\\Users\\\\u\\\\x"}';
    expect(redact(text)).toEqual({ text, hits: [] });
  });
});

describe('redact: tokens glued to a word, environment names, prefixes whatever the name (issue 24)', () => {
  const m = (kind: string, secret: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
  const planted = issue24Secrets('unit');

  for (const p of planted) {
    it(`${p.what}: ${p.line.replace(p.secret, '<secret>')}`, () => {
      const hit = one(p.line);
      expect([hit.kind, hit.fingerprint]).toEqual([p.kind, secretFingerprint(p.secret)]);
      expect(hit.out).toBe(p.line.replace(p.secret, m(p.kind, p.secret)));
    });
  }

  it("the 1.x cline-core log's environment dump: each value under its name, the ordinary ones kept", () => {
    const vars = Object.fromEntries(planted.filter((p) => p.env).map((p) => [p.env!, p.secret]));
    const ordinary = {
      PATH: '/usr/bin:/bin',
      npm_config_update_notifier: 'false',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXXa1b2/agent.4242',
    };
    const line = `[2026-12-01T19:24:54.753] #bot.cline.server.ts Environment variables: ${JSON.stringify({ ...ordinary, ...vars })}`;
    const r = redact(line);
    const expected = planted.filter((p) => p.env).map((p) => [p.kind, secretFingerprint(p.secret)]);
    expect(r.hits.map((h) => [h.kind, h.fingerprint])).toEqual(expected);
    expect(r.text).toContain(JSON.stringify(ordinary).slice(1, -1));
    for (const p of planted.filter((p) => p.env)) expect(r.text).toContain(`"${p.env}":"${m(p.kind, p.secret)}"`);
  });

  it("an environment dumped as a JavaScript object (`NAME: 'value'`) and as NAME=value lines", () => {
    const env = planted.filter((p) => p.env);
    const inspected = `{\n${env.map((p) => `  ${p.env}: '${p.secret}',`).join('\n')}\n}`;
    const lines = env.map((p) => p.line).join('\n');
    for (const text of [inspected, lines]) {
      expect(redact(text).hits.map((h) => h.fingerprint)).toEqual(env.map((p) => secretFingerprint(p.secret)));
    }
  });

  it('a token glued to the next word keeps the word: ghp_..._old, ghp_...-backup.txt, npm_....json', () => {
    const [ghp, npm] = ['github', 'npm'].map((kind) => planted.find((p) => p.kind === kind)!.secret);
    for (const [text, kind, secret] of [
      [`${ghp}_old`, 'github', ghp],
      [`${ghp}-backup.txt`, 'github', ghp],
      [`cp ${npm}.json /tmp`, 'npm', npm],
    ]) {
      expect(redact(text).text).toBe(text.replace(secret, m(kind, secret)));
    }
  });

  it('a token after an escaped line end or tab in JSON text, once or twice escaped; not after a letter', () => {
    const ghp = planted.find((p) => p.kind === 'github')!.secret;
    for (const text of [
      JSON.stringify(`out:\n${ghp}`),
      JSON.stringify(`a\t${ghp}`),
      JSON.stringify(JSON.stringify(`x\r\n${ghp}`)),
    ]) {
      expect(redact(text).text).toBe(text.replace(ghp, m('github', ghp)));
    }
    expect(redact(`x${ghp} n${ghp}`).hits).toEqual([]);
  });

  it('the real 1.x environment dumps (fixtures/real-producer/cline-1.0.10) hold no secret', () => {
    // every cline-core log of the corpus that printed its environment (their names change with each `make real-corpus`)
    const logs = fixture('real-producer', 'cline-1.0.10', 'home', '.cline', 'logs');
    const dumps = readdirSync(logs)
      .filter((f) => f.startsWith('cline-core-'))
      .flatMap((f) => readFileSync(path.join(logs, f), 'utf8').split('\n'))
      .filter((l) => l.includes('Environment variables: {'));
    expect(dumps.length).toBeGreaterThan(0);
    for (const dump of dumps) {
      expect(dump).toContain('"npm_config_update_notifier":"false"');
      expect(redact(dump)).toEqual({ text: dump, hits: [] });
    }
  });
});

describe('redact: no false positives', () => {
  const negatives: Array<[string, string]> = [
    ['UUIDs', 'task 0b7c2a51-6a1e-4f36-9d1e-2c8b9f0e1a77 and session 7d3e9a10-2b4c-4f8e-9a61-0c5d2e8f4b13'],
    [
      'git SHAs',
      'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD) and b1e2529 merged; sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ],
    ['base64 image data', `data:image/png;base64,iVBORw0KGgo${chars(B64, 20_000, 'png')}==`],
    [
      'prose about tokens',
      'The token count was 4096 tokens; the tokenizer splits words. Pass the API key as a header. Your password must be 8 characters.',
    ],
    [
      'empty and placeholder values',
      `apiKey: ''\n"apiKey": ""\nOPENAI_API_KEY=your-api-key-here\nAPI_KEY=<your key>\ntoken: \${{ secrets.GITHUB_TOKEN }}\npassword=********\nsecret=xxxxxxxxxxxx`,
    ],
    [
      'code',
      'const key = getKey();\nconst apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;\nthis.token = await getToken(user);\npassword: Optional[str] = None\napiKey: string;\ntoken: TokenCredential\nif (token === storedToken) {}\nconst fn = (token) => token.trim()',
    ],
    [
      'counts and settings',
      '"max_tokens": 8192, "tokensIn": 123456789, "cacheWrites": 0, secret_santa=2024, tokenizer: cl100k_base',
    ],
    ['paths and URLs', 'PWD=/home/u/proj\ntoken_url: https://oauth2.googleapis.com/token\npassword_file=/etc/app/password.txt'],
    [
      'hyphenated names starting with sk-',
      'npm i sk-some-long-hyphenated-package-name and task-8f14e45fceea167a5a36dedd4bea2543',
    ],
    ['a Bearer word without a token', 'Use the Bearer scheme: Authorization: Bearer <token>, or Bearer ${TOKEN}.'],
    ['AWS documentation words', 'AKIAI is a prefix; ASIA-Pacific region; arn:aws:iam::123456789012:role/x'],
    ['JSON of Cline tool calls', '{"tool":"readFile","path":"src/auth/token.ts","content":"export function refreshToken() {}"}'],
    [
      'a redacted text',
      '[REDACTED:openai:0123456789ab] and Bearer [REDACTED:jwt:0123456789ab]; [REDACTED:aws_secret_key:0123456789ab] [REDACTED:private_key:0123456789ab]',
    ],
    [
      'placeholders that start with a placeholder word',
      'OPENAI_API_KEY=your_api_key_123\nAPI_KEY=YOUR_API_KEY_1\npassword: changeme\nSECRET_KEY=your-secret-key-here\n' +
        'apiKey: "test-api-key"\ntoken: "xxxxxxxxxxxxxxxx"\n"password": "example-password"\nsecret = "PLACEHOLDER_SECRET"\n' +
        'api_key: "<your-api-key>"\ntoken=${TOKEN}\npassword=Password\ntoken_file=test/fixtures/token.txt\npassword: password123',
    ],
    [
      'more code',
      'password = getPassword()\ntoken: string\napi_key=os.environ["OPENAI_API_KEY"]\nPASSWORD_MIN_LENGTH=8\n' +
        'secret: process.env.SECRET_KEY\npassword_hash = hash_password(pw)\ntoken = tokens[0]\nconst token = jwt.sign(payload, secret)\n' +
        'if password == confirm_password:\npassword = input("Password: ")\ntoken = request.headers.get("X-Token")\napi_key=settings.OPENAI_API_KEY\n' +
        'password: ${{ secrets.DB_PASSWORD }}\nPASSWORD_RESET_TIMEOUT=3600',
    ],
    [
      'AWS words without a key',
      'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}\naws_secret_access_key=/home/u/.aws/credentials\nSecretAccessKey: "<secret>"',
    ],
    [
      'identifiers that start like tokens',
      'from huggingface_hub import hf_hub_download, HfApi\nnpm_config_update_notifier=false npm_package_json=/home/u/p/package.json\n' +
        '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 disk-8f14e45fceea167a5a36dedd4bea2543\n' +
        'my-sk-some-long-hyphenated-package-name gsk_test xai-grok-beta r8_model',
    ],
    [
      '*_KEY and *_AUTH* names of things that are not secrets',
      'SORT_KEY=created_at_desc\n"sort_key": "createdAt"\nCACHE_KEY=v2-deps-linux\nprimary_key = "user_id"\n' +
        'SSH_AUTH_SOCK=/tmp/ssh-XXXXa1b2/agent.4242\nGIT_AUTHOR_EMAIL=jane.doe2024@example.com\nGIT_AUTHOR_DATE=2024-01-01T10:00:00\n' +
        'FIREBASE_AUTH_DOMAIN=app-4f2a9.firebaseapp.com\nBASIC_AUTH_USER=admin2\nPROXY_AUTH_EMAIL=ops2024team@example.com\n' +
        'OPENAI_KEY=your-openai-key-here\nAZURE_KEY=${AZURE_OPENAI_KEY}\nS3_KEY=uploads/report.pdf',
    ],
  ];
  for (const [name, text] of negatives) {
    it(name, () => {
      const r = redact(text);
      expect(r.hits).toEqual([]);
      expect(r.text).toBe(text);
    });
  }
});
