import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/core/child-env';

const env = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  OPENAI_API_KEY: 'sk-1',
  OPENAI_BASE_URL: 'http://x/v1',
  GITHUB_TOKEN: 'ghp_1',
  aws_secret_access_key: 'a',
  PGPASSWORD: 'p',
  GOOGLE_APPLICATION_CREDENTIALS: '/c.json',
  MY_LLM_AUTH: 'z',
  LANG: 'C.UTF-8',
};

describe('childEnv', () => {
  it('drops names with KEY, TOKEN, SECRET, PASSWORD or CREDENTIAL in any case, and the provider variables', () => {
    expect(childEnv(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/u', MY_LLM_AUTH: 'z', LANG: 'C.UTF-8' });
  });

  it('drops the extra names it is given (a provider key variable of any name)', () => {
    expect(childEnv(env, { drop: ['MY_LLM_AUTH'] })).not.toHaveProperty('MY_LLM_AUTH');
  });

  it('passes through exactly the names the user lists', () => {
    const out = childEnv(env, { passEnv: ['GITHUB_TOKEN'], drop: ['MY_LLM_AUTH'] });
    expect(out['GITHUB_TOKEN']).toBe('ghp_1');
    expect(out).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('drops a value that is or holds a URL with a password, whatever the name; the user may pass it', () => {
    const urls = {
      DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/app',
      REDIS_URL: 'redis://:hunter2@cache:6379',
      HTTPS_PROXY: ' http://me:hunter2@proxy:3128',
      MIRRORS: 'https://a.example/x https://me:hunter2@b.example/y',
      PIP_OPTS: '--index-url=https://me:hunter2@pypi.internal/simple',
      SMTP_PASSWD: 'hunter2',
      GPG_PASSPHRASE: 'hunter2',
      PLAIN_URL: 'https://user@example.com/path',
      SITE: 'https://example.com:8443/a@b',
    };
    const out = childEnv(urls);
    expect(JSON.stringify(out)).not.toContain('hunter2');
    expect(out).toEqual({ PLAIN_URL: 'https://user@example.com/path', SITE: 'https://example.com:8443/a@b' });
    expect(childEnv(urls, { passEnv: ['DATABASE_URL'] })['DATABASE_URL']).toBe(urls.DATABASE_URL);
  });
});
