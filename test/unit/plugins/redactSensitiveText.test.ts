import { describe, expect, it } from 'vitest';
import { maskSecret, redactSensitiveText } from '../../../src/plugins/sdk/redactSensitiveText';

describe('redactSensitiveText', () => {
  it('masks long secrets keeping 6 leading and 4 trailing characters, short ones entirely', () => {
    expect(maskSecret('sk-abcdefghijklmnopqrstuvwxyz123456')).toBe('sk-abc…3456');
    expect(maskSecret('hunter2')).toBe('***');
  });

  it('masks provider tokens', () => {
    expect(redactSensitiveText('key sk-ant-api03-abcdefghijklmnopqrstuv done')).toBe('key sk-ant…stuv done');
    expect(redactSensitiveText('gh ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')).toBe('gh ghp_AB…6789');
    expect(redactSensitiveText('aws AKIAIOSFODNN7EXAMPLE')).toBe('aws AKIAIO…MPLE');
    expect(redactSensitiveText('slack xoxb-123456789012-abcdefghij')).toBe('slack xoxb-1…ghij');
    expect(redactSensitiveText('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop')).toBe(
      'jwt eyJhbG…mnop',
    );
  });

  it('masks Bearer tokens but keeps the word Bearer', () => {
    expect(redactSensitiveText('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).toBe(
      'Authorization: Bearer abcdef…wxyz',
    );
  });

  it('masks values of secret-named keys in assignment and JSON form', () => {
    expect(redactSensitiveText('password=hunter2 user=bob')).toBe('password=*** user=bob');
    expect(redactSensitiveText('{"apiKey": "0123456789abcdefghij", "model": "x"}')).toBe(
      '{"apiKey": "012345…ghij", "model": "x"}',
    );
    expect(redactSensitiveText('client_secret: s3cr3tvalue')).toBe('client_secret: ***');
  });

  it('masks PEM private key blocks', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----';
    expect(redactSensitiveText(`key:\n${pem}\nend`)).toBe(
      'key:\n-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----\nend',
    );
  });

  it('leaves ordinary text alone, honours mode "off" and applies extra patterns', () => {
    expect(redactSensitiveText('the token budget is 4000 tokens')).toBe('the token budget is 4000 tokens');
    expect(redactSensitiveText('sk-abcdefghijklmnopqrstuvwxyz123456', { mode: 'off' })).toBe(
      'sk-abcdefghijklmnopqrstuvwxyz123456',
    );
    expect(redactSensitiveText('id INTERNAL-0000111122223333', { patterns: ['INTERNAL-\\d+'] })).toBe('id INTERN…3333');
  });
});
