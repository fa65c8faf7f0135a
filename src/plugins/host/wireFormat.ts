/**
 * The vocabulary of the engine-host wire format (see wireCodec.ts): the tag key, the JSON tree type, the two sides
 * of a channel and the error for malformed values. Kept apart from the codec so the message reference cache can
 * name a side without importing the codec that uses it.
 */

export const WIRE_TAG = '$cs';
export const MAX_DEPTH = 256;

export type WireSide = 'parent' | 'child';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** where a value sits: a message slot (`message` key, element of a `messages` array) or elsewhere */
export type Slot = 'none' | 'message' | 'messages';

export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

/** An object whose prototype is Object.prototype or null (not a class instance). */
export function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}
