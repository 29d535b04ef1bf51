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
});
