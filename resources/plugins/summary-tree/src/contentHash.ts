// Content hash of a message, used to recognise a message the store already holds (bootstrap re-reads, host
// retries, a forked child replaying its parent's history). The JSON is canonical (sorted keys), so the same
// message built by different code paths hashes the same; timestamps are part of it, so two genuinely separate
// "ok" messages stay distinct.

import { hash } from 'node:crypto';

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
    first = false;
  }
  return `${out}}`;
}

/** 64-bit hex digest: plenty to tell one session's messages apart, and half the size of a full sha256 in state. */
export function messageHash(message: unknown): string {
  return hash('sha256', canonicalJson(message)).slice(0, 16);
}
