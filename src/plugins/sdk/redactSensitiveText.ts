/**
 * `redactSensitiveText` of `openclaw/plugin-sdk/logging-core`: masks credentials in text before it is logged.
 *
 * The pattern set (documented in src/plugins/README.md), applied in this order:
 *  1. PEM private-key blocks                     `-----BEGIN ... PRIVATE KEY----- ... -----END ... PRIVATE KEY-----`
 *  2. `Authorization: Bearer <token>` / `Bearer <token>` (the word Bearer is kept)
 *  3. key/value assignments whose key names a secret: api_key, apikey, api-key, access_token, refresh_token,
 *     auth_token, token, secret, client_secret, password, passwd, pwd (JSON `"key": "v"`, `key=v`, `key: v`;
 *     the key and quotes are kept, the value is masked)
 *  4. provider tokens: `sk-…`/`sk-ant-…` (OpenAI, Anthropic), `ghp_/gho_/ghu_/ghs_/ghr_…` and `github_pat_…`
 *     (GitHub), `xox[abposr]-…` (Slack), `AKIA…`/`ASIA…` (AWS access key ids), `AIza…` (Google API keys),
 *     `glpat-…` (GitLab), `hf_…` (Hugging Face), `npm_…` (npm), JSON Web Tokens (`eyJ….….…`)
 * Masking keeps the first 6 and last 4 characters of a secret of 18+ characters (`sk-abc…wxyz`) so log lines
 * stay correlatable; shorter secrets become `***`.
 */

export interface RedactOptions {
  /** "off" returns the text unchanged (OpenClaw's logging.redactSensitive = "off") */
  mode?: 'off' | 'tools' | string;
  /** extra regular-expression sources; each whole match is masked */
  patterns?: string[];
}

export function maskSecret(secret: string): string {
  if (secret.length < 18) return '***';
  return `${secret.slice(0, 6)}…${secret.slice(-4)}`;
}

const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g;
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)/g;
const SECRET_KEY_NAMES =
  'api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret|secret|token|password|passwd|pwd';
/** key (optionally quoted), separator, optionally quoted value */
const KEY_VALUE = new RegExp(
  `((?:["']?)\\b(?:${SECRET_KEY_NAMES})\\b(?:["']?)\\s*[:=]\\s*)(["']?)([^\\s"',;&}]{4,})(\\2)`,
  'gi',
);
const PROVIDER_TOKENS: RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

export function redactSensitiveText(text: string, options: RedactOptions = {}): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  if (options.mode === 'off') return text;
  let out = text.replace(PEM_BLOCK, '-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----');
  out = out.replace(BEARER, (_m, prefix: string, token: string) => `${prefix}${maskSecret(token)}`);
  out = out.replace(KEY_VALUE, (_m, head: string, quote: string, value: string, close: string) =>
    value.includes('…') || value === '***'
      ? `${head}${quote}${value}${close}`
      : `${head}${quote}${maskSecret(value)}${close}`,
  );
  for (const pattern of PROVIDER_TOKENS) out = out.replace(pattern, (m) => maskSecret(m));
  for (const source of options.patterns ?? []) {
    let extra: RegExp;
    try {
      extra = new RegExp(source, 'g');
    } catch {
      continue; // an invalid custom pattern must not break logging
    }
    out = out.replace(extra, (m) => maskSecret(m));
  }
  return out;
}
