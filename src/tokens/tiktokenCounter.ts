/**
 * Exact token counts with tiktoken (WASM). Encoders are created lazily, once per encoding per process, and are
 * never freed (there are two). Counting uses `encode_ordinary`, so special-token text such as `<|im_start|>` is
 * counted as ordinary text instead of throwing. `tiktoken/load` is never used (it downloads).
 */
import { createHash } from 'node:crypto';
import { get_encoding, type Tiktoken } from 'tiktoken';
import type { AgentMessage } from '../contract';
import { messageTokenText, TOKENIZER_IMAGE_TOKENS } from './messageTokenText';
import { splitForTokenizer } from './splitForTokenizer';

export type TokenEncoding = 'o200k_base' | 'cl100k_base';
export const DEFAULT_TOKEN_ENCODING: TokenEncoding = 'o200k_base';

const encoders = new Map<TokenEncoding, Tiktoken>();

function encoderFor(encoding: TokenEncoding): Tiktoken {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    if (encoding !== 'o200k_base' && encoding !== 'cl100k_base') {
      throw new Error(`Unknown token encoding "${String(encoding)}": use "o200k_base" or "cl100k_base".`);
    }
    encoder = get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/** Older OpenAI families tokenized with cl100k_base (GPT-4 before 4o, GPT-3.5, the text-embedding-ada/3 models). */
const CL100K_MODEL_RE = /^(?:gpt-4(?:$|-)|gpt-3\.5|gpt-35|text-embedding-ada|text-embedding-3)/;

/**
 * The encoding for a model id: cl100k_base for gpt-4 / gpt-4-turbo / gpt-3.5 / text-embedding-ada-002 / -3,
 * o200k_base for gpt-4o, gpt-4.1, o1/o3/o4, gpt-5 and anything unknown. A `provider/` prefix is ignored.
 */
export function encodingForModel(modelId: string | null | undefined): TokenEncoding {
  if (!modelId) return DEFAULT_TOKEN_ENCODING;
  const id = modelId.trim().toLowerCase();
  const bare = id.includes('/') ? id.slice(id.lastIndexOf('/') + 1) : id;
  return CL100K_MODEL_RE.test(bare) ? 'cl100k_base' : 'o200k_base';
}

/**
 * Uncached count of `text` in `encoding` (default o200k_base). Long texts are encoded piece by piece
 * (`splitForTokenizer`) so tiktoken's BPE stays linear: exact at every soft cut; only a stretch of more than
 * `TOKENIZER_MAX_RUN_CHARS` units with no soft cut is hard-cut, and each hard cut may move the count (measured:
 * at most 2 tokens per cut).
 */
export function countTokens(text: string, encoding: TokenEncoding = DEFAULT_TOKEN_ENCODING): number {
  if (text.length === 0) return 0;
  const encoder = encoderFor(encoding);
  const { pieces } = splitForTokenizer(text);
  let total = 0;
  for (const piece of pieces) total += encoder.encode_ordinary(piece).length;
  return total;
}

export interface TokenCounterStats {
  /** lookups answered from the cache */
  hits: number;
  /** lookups that ran the tokenizer */
  misses: number;
  /** distinct (encoding, text) pairs held */
  uniqueTexts: number;
}

export interface TokenCounter {
  /** exact tokens of `text`; each distinct text is tokenized once per encoding */
  countText(text: string, encoding?: TokenEncoding): number;
  /** tokens of the message's LLM-visible text plus `TOKENIZER_IMAGE_TOKENS` per image */
  countMessage(message: AgentMessage, encoding?: TokenEncoding): number;
  /** sum of `countMessage` */
  countMessages(messages: readonly AgentMessage[], encoding?: TokenEncoding): number;
  stats(): TokenCounterStats;
}

function contentKey(encoding: TokenEncoding, text: string): string {
  return `${encoding}:${createHash('sha1').update(text).digest('base64')}`;
}

/** A counter with its own cache, keyed by encoding + sha1 of the text. */
export function createTokenCounter(): TokenCounter {
  const cache = new Map<string, number>();
  let hits = 0;
  let misses = 0;

  const countText = (text: string, encoding: TokenEncoding = DEFAULT_TOKEN_ENCODING): number => {
    if (text.length === 0) return 0;
    const key = contentKey(encoding, text);
    const cached = cache.get(key);
    if (cached !== undefined) {
      hits++;
      return cached;
    }
    misses++;
    const count = countTokens(text, encoding);
    cache.set(key, count);
    return count;
  };

  const countMessage = (message: AgentMessage, encoding: TokenEncoding = DEFAULT_TOKEN_ENCODING): number => {
    const { text, images } = messageTokenText(message);
    return countText(text, encoding) + images * TOKENIZER_IMAGE_TOKENS;
  };

  return {
    countText,
    countMessage,
    countMessages(messages, encoding) {
      let total = 0;
      for (const message of messages) total += countMessage(message, encoding);
      return total;
    },
    stats: () => ({ hits, misses, uniqueTexts: cache.size }),
  };
}
