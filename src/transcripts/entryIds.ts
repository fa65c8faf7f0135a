/** Entry ids: 8 lowercase hex chars, unique within a session (OpenClaw treats ids as opaque strings). */
import { randomBytes } from 'node:crypto';

export type EntryIdSource = () => string;

export const randomEntryIdSource: EntryIdSource = () => randomBytes(4).toString('hex');

/** A fresh id not in `taken`, drawn from `source`; falls back to a 16-char id after 100 collisions. */
export function generateEntryId(
  taken: { has(id: string): boolean },
  source: EntryIdSource = randomEntryIdSource,
): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = source();
    if (!taken.has(id)) return id;
  }
  let id: string;
  do id = randomBytes(8).toString('hex');
  while (taken.has(id));
  return id;
}
