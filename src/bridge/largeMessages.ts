/**
 * The dispatcher's handling of messages over the bridge's bound, both ways (see piecedAnswer.ts): answers over it
 * held in pieces and read with `bridge.piece`, params over it sent with `bridge.upload` and named by the call.
 * `bridge.piece` and `bridge.upload` are the dispatcher's own methods, served here before any handler.
 */
import { Type } from '@sinclair/typebox';
import { errorMessage } from '../common/errorText';
import { isRecord } from '../common/guards';
import { AnswerPieceStore, BRIDGE_ANSWER_BYTES } from './answerPieceStore';
import { bridgeError, BridgeMethodError, type BridgeError } from './errors';
import { PIECE_METHOD, UPLOAD_MARKER, UPLOAD_METHOD } from './piecedAnswer';
import type { createSchemaCompiler } from './schemaValidator';
import type { BridgeOutcome } from './types';
import { UploadStore } from './uploadStore';

type Failure = { ok: false; error: BridgeError };

export interface LargeMessageOptions {
  /** answers over this many bytes of JSON travel in pieces (default 1 MB) */
  maxAnswerBytes?: number;
  /** size cap of one upload of params, in bytes (default 256 MiB) */
  maxUploadBytes?: number;
}

export interface LargeMessages {
  /** the dispatcher's own methods */
  readonly methodNames: readonly string[];
  /** serves bridge.piece and bridge.upload; undefined for any other method */
  call(method: unknown, params: unknown): BridgeOutcome | undefined;
  /** the call's params: `params`, or the upload they name (`{"$bridgeUpload": token}`) parsed */
  params(method: unknown, params: unknown): Failure | { ok: true; params: unknown };
  /** what goes on the wire for `result`: itself, or the marker of its pieces when its JSON is over the bound */
  answer(result: unknown): unknown;
}

const PieceRequestSchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 64 }), index: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
const UploadRequestSchema = Type.Object(
  { token: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), text: Type.String() },
  { additionalProperties: false },
);

function fail(code: string, method: string, path: string, message: string): Failure {
  return { ok: false, error: bridgeError(code, method, path, message) };
}

/** The outcome of `run` on one of the stores (their errors are BridgeMethodErrors). */
function outcomeOf(method: string, run: () => unknown): Failure | { ok: true; result: unknown } {
  try {
    return { ok: true, result: run() };
  } catch (error) {
    if (error instanceof BridgeMethodError) return fail(error.code, method, error.path, error.message);
    throw error;
  }
}

export function createLargeMessages(
  compile: ReturnType<typeof createSchemaCompiler>,
  options: LargeMessageOptions = {},
): LargeMessages {
  const maxAnswerBytes = options.maxAnswerBytes ?? BRIDGE_ANSWER_BYTES;
  const pieces = new AnswerPieceStore();
  const uploads = new UploadStore(options.maxUploadBytes);
  const validators = { [PIECE_METHOD]: compile(PieceRequestSchema), [UPLOAD_METHOD]: compile(UploadRequestSchema) };

  const serve = (method: typeof PIECE_METHOD | typeof UPLOAD_METHOD, params: unknown): BridgeOutcome => {
    const problem = validators[method](params);
    if (problem) {
      const where = problem.path || '/';
      return fail(
        'invalid_params',
        method,
        problem.path,
        `Invalid params for ${method} at ${where}: ${problem.message}.`,
      );
    }
    if (method === PIECE_METHOD) {
      const { token, index } = params as { token: string; index: number };
      return outcomeOf(method, () => pieces.piece(token, index));
    }
    const { token, text } = params as { token?: string; text: string };
    return outcomeOf(method, () => uploads.append(token, text));
  };

  return {
    methodNames: [PIECE_METHOD, UPLOAD_METHOD],
    call(method, params) {
      if (method !== PIECE_METHOD && method !== UPLOAD_METHOD) return undefined;
      return serve(method, params === undefined ? {} : params);
    },
    params(method, params) {
      if (!isRecord(params) || !Object.hasOwn(params, UPLOAD_MARKER) || Object.keys(params).length !== 1) {
        return { ok: true, params };
      }
      const name = typeof method === 'string' ? method : '';
      const path = `/${UPLOAD_MARKER}`;
      const token = params[UPLOAD_MARKER];
      if (typeof token !== 'string') return fail('invalid_params', name, path, 'An upload token is a string.');
      const taken = outcomeOf(name, () => uploads.take(token));
      if (!taken.ok) return taken;
      try {
        return { ok: true, params: JSON.parse(taken.result as string) as unknown };
      } catch (error) {
        return fail('invalid_json', name, path, `The uploaded params are not JSON: ${errorMessage(error)}.`);
      }
    },
    answer(result) {
      // undefined has no JSON: nothing to measure; UTF-8 takes at most 3 bytes a UTF-16 unit
      const json = result === undefined ? undefined : JSON.stringify(result);
      if (json === undefined || json.length <= maxAnswerBytes / 3 || Buffer.byteLength(json) <= maxAnswerBytes) {
        return result;
      }
      return pieces.hold(json);
    },
  };
}
