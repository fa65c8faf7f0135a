/** What encoding and decoding a wire value may ask of the channel (function, signal and message references). */
import type { MessageRefDecoder, MessageRefEncoder } from './messageRefTable';
import { WireFormatError, type WireSide } from './wireFormat';

export interface EncodeContext {
  /** registers a function so the other side can call it; returns its id */
  exportFunction(fn: (...args: unknown[]) => unknown): number;
  /** registers an AbortSignal so the other side sees it abort; returns its id */
  exportSignal(signal: AbortSignal): number;
  /** which side is encoding */
  side: WireSide;
  /** resolves a function/signal that came from the other side back to its reference (when re-sent) */
  remoteRef?(value: unknown): { kind: 'fn' | 'signal'; id: number; side: WireSide } | undefined;
  /** the message reference cache for this payload; without it message slots are copied like any object */
  messageRefs?: MessageRefEncoder;
}

export interface DecodeContext {
  side: WireSide;
  importFunction(id: number, name: string): (...args: unknown[]) => Promise<unknown>;
  importSignal(id: number, aborted: boolean, reason: unknown): AbortSignal;
  /** a function/signal this side exported earlier, sent back */
  localFunction(id: number): ((...args: unknown[]) => unknown) | undefined;
  localSignal(id: number): AbortSignal | undefined;
  /** the message reference cache for this payload; without it ref/def nodes are rejected */
  messageRefs?: MessageRefDecoder;
}

/** Encode/decode contexts for plain data (no functions or signals allowed); used for reports and tests. */
export const DATA_ONLY_ENCODE: EncodeContext = {
  side: 'child',
  exportFunction: () => {
    throw new WireFormatError('functions cannot be sent here');
  },
  exportSignal: () => {
    throw new WireFormatError('AbortSignals cannot be sent here');
  },
};
export const DATA_ONLY_DECODE: DecodeContext = {
  side: 'parent',
  importFunction: () => {
    throw new WireFormatError('functions cannot be received here');
  },
  importSignal: () => {
    throw new WireFormatError('AbortSignals cannot be received here');
  },
  localFunction: () => undefined,
  localSignal: () => undefined,
};
