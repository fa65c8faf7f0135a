/**
 * The engine-host protocol: every message between the app and an engine-host child, as typebox schemas.
 * Both sides validate every incoming message (a plugin runs in the child and may write anything to the channel).
 *
 * Envelope messages carry wire-encoded payloads (see wireCodec.ts); after decoding, request arguments and
 * replies are validated again against the per-operation schemas below.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';

export const ENGINE_HOST_PROTOCOL_VERSION = 1;

const Id = Type.Integer({ minimum: 1 });
const Wire = Type.Unknown();

/** Operations the app asks the engine host to perform. */
export const ParentOp = Type.Union([
  Type.Literal('register'),
  Type.Literal('createEngine'),
  Type.Literal('callEngine'),
  Type.Literal('invokeFunction'),
  Type.Literal('runHooks'),
]);
export type ParentOp = Static<typeof ParentOp>;

/** Operations the engine host asks the app to perform (callbacks into the parent). */
export const ChildOp = Type.Union([
  Type.Literal('llm.complete'),
  Type.Literal('delegateCompaction'),
  Type.Literal('invokeFunction'),
]);
export type ChildOp = Static<typeof ChildOp>;

const requestOf = <T extends TSchema>(op: T) =>
  Type.Object({ type: Type.Literal('request'), id: Id, op, args: Type.Array(Wire) }, { additionalProperties: false });

export const ResponseMessage = Type.Object(
  {
    type: Type.Literal('response'),
    id: Id,
    ok: Type.Boolean(),
    value: Type.Optional(Wire),
    error: Type.Optional(Wire),
  },
  { additionalProperties: false },
);
export const AbortMessage = Type.Object(
  { type: Type.Literal('abort'), signalId: Type.Integer({ minimum: 1 }), reason: Wire },
  { additionalProperties: false },
);
export const CancelMessage = Type.Object(
  { type: Type.Literal('cancel'), id: Id, reason: Type.String() },
  { additionalProperties: false },
);
export const PingMessage = Type.Object({ type: Type.Literal('ping'), nonce: Id }, { additionalProperties: false });
export const PongMessage = Type.Object({ type: Type.Literal('pong'), nonce: Id }, { additionalProperties: false });
const MessageIds = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1_000_000 });
/** the app released engine-named message ids (see messageRefTable.ts) */
export const ReleaseMessage = Type.Object(
  { type: Type.Literal('release'), ids: MessageIds },
  { additionalProperties: false },
);
/** the engine host forgot the released ids */
export const ReleasedMessage = Type.Object(
  { type: Type.Literal('released'), ids: MessageIds },
  { additionalProperties: false },
);
export const ShutdownMessage = Type.Object({ type: Type.Literal('shutdown') }, { additionalProperties: false });
export const ReadyMessage = Type.Object(
  {
    type: Type.Literal('ready'),
    protocol: Type.Literal(ENGINE_HOST_PROTOCOL_VERSION),
    pid: Type.Integer(),
    node: Type.String(),
    /** the process runs under Node's permission model (`process.permission` exists) */
    confined: Type.Optional(Type.Boolean()),
    /** how it encodes and decodes payloads (channelCodec.ts; absent: `refs`); the app refuses a host that differs */
    codec: Type.Optional(Type.Union([Type.Literal('refs'), Type.Literal('json')])),
  },
  { additionalProperties: false },
);
export const LogLevel = Type.Union([
  Type.Literal('debug'),
  Type.Literal('info'),
  Type.Literal('warn'),
  Type.Literal('error'),
]);
export type LogLevel = Static<typeof LogLevel>;
export const LogMessage = Type.Object(
  {
    type: Type.Literal('log'),
    level: LogLevel,
    message: Type.String({ maxLength: 64_000 }),
    pluginId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export const FatalMessage = Type.Object(
  {
    type: Type.Literal('fatal'),
    origin: Type.Union([Type.Literal('uncaughtException'), Type.Literal('unhandledRejection')]),
    error: Wire,
  },
  { additionalProperties: false },
);

/**
 * The permission model refused the plugin something (an ERR_ACCESS_DENIED error on its way to the app: an engine
 * call's, register's, a hook's or an uncaught one): `permission` as Node names it (`FileSystemRead`,
 * `FileSystemWrite`, `ChildProcess`, `WorkerThreads`), `resource` the path or command, `operation` where it surfaced.
 */
export const DeniedMessage = Type.Object(
  {
    type: Type.Literal('denied'),
    permission: Type.String({ maxLength: 100 }),
    resource: Type.String({ maxLength: 8192 }),
    operation: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const ParentToChildMessage = Type.Union([
  requestOf(ParentOp),
  ResponseMessage,
  AbortMessage,
  CancelMessage,
  PingMessage,
  ShutdownMessage,
  ReleaseMessage,
]);
export type ParentToChildMessage = Static<typeof ParentToChildMessage>;

export const ChildToParentMessage = Type.Union([
  ReadyMessage,
  requestOf(ChildOp),
  ResponseMessage,
  AbortMessage,
  PongMessage,
  LogMessage,
  FatalMessage,
  ReleasedMessage,
  DeniedMessage,
]);
export type ChildToParentMessage = Static<typeof ChildToParentMessage>;

// ---- per-operation payloads (checked after wire decoding) ----

export const EntryFormat = Type.Union([Type.Literal('esm'), Type.Literal('cjs'), Type.Literal('ts')]);
export type EntryFormat = Static<typeof EntryFormat>;

export const RegisterRequest = Type.Object({
  pluginRoot: Type.String(),
  entries: Type.Array(Type.Object({ file: Type.String(), format: EntryFormat, pluginId: Type.String() })),
  registrationMode: Type.String(),
  pluginName: Type.Optional(Type.String()),
  pluginDescription: Type.Optional(Type.String()),
  pluginVersion: Type.Optional(Type.String()),
  config: Type.Unknown(),
  pluginConfig: Type.Unknown(),
  sdk: Type.Object({ memoryPromptSection: Type.Optional(Type.String()) }),
  shimDir: Type.String(),
  /** the files consent covers (real path → sha256): the only plugin modules the host loads (moduleCoverage.ts) */
  covered: Type.Record(Type.String(), Type.String()),
  /** whether the app backs api.runtime.llm.complete; without it the api has no runtime.llm (plugins fall back) */
  llmAvailable: Type.Boolean(),
  /** folder for transpiled TypeScript entries (see src/plugins/transpileCache.ts); absent: no file cache */
  transpileCacheDir: Type.Optional(Type.String()),
});
export type RegisterRequest = Static<typeof RegisterRequest>;

export const EntryLoadError = Type.Object({
  /** the module that could not be loaded (from ERR_MODULE_NOT_FOUND / MODULE_NOT_FOUND), when known */
  module: Type.Optional(Type.String()),
  message: Type.String(),
  code: Type.Optional(Type.String()),
  stack: Type.Optional(Type.String()),
  /** where it failed: importing the entry, finding register(), or running register(api) */
  phase: Type.Union([Type.Literal('import'), Type.Literal('export'), Type.Literal('register')]),
});
export type EntryLoadError = Static<typeof EntryLoadError>;

export const RegisterReport = Type.Object({
  entries: Type.Array(
    Type.Object({
      pluginId: Type.String(),
      file: Type.String(),
      loaded: Type.Boolean(),
      asyncRegister: Type.Boolean(),
      error: Type.Optional(EntryLoadError),
    }),
  ),
  /** every registerContextEngine call, in order, with the raw arguments' shape (the parent replays them) */
  engines: Type.Array(
    Type.Object({
      seq: Type.Integer({ minimum: 0 }),
      pluginId: Type.String(),
      id: Type.Unknown(),
      factoryIsFunction: Type.Boolean(),
    }),
  ),
  tools: Type.Array(
    Type.Object({ pluginId: Type.String(), name: Type.Union([Type.String(), Type.Null()]), isFactory: Type.Boolean() }),
  ),
  commands: Type.Array(Type.Object({ pluginId: Type.String(), name: Type.Union([Type.String(), Type.Null()]) })),
  hooks: Type.Array(Type.Object({ pluginId: Type.String(), event: Type.String() })),
  /** optional host API calls that ContextScope accepts as no-ops (registerService, registerHttpRoute, ...) */
  stubs: Type.Array(Type.Object({ pluginId: Type.String(), method: Type.String() })),
});
export type RegisterReport = Static<typeof RegisterReport>;

export const CreateEngineRequest = Type.Object({ seq: Type.Integer({ minimum: 0 }), ctx: Type.Unknown() });
export type CreateEngineRequest = Static<typeof CreateEngineRequest>;

export const CreateEngineReply = Type.Union([
  Type.Object({
    kind: Type.Literal('engine'),
    handle: Type.Integer({ minimum: 1 }),
    hasInfo: Type.Boolean(),
    info: Type.Unknown(),
    methods: Type.Array(Type.String()),
  }),
  Type.Object({ kind: Type.Literal('value'), value: Type.Unknown() }),
]);
export type CreateEngineReply = Static<typeof CreateEngineReply>;

export const CallEngineRequest = Type.Object({
  handle: Type.Integer({ minimum: 1 }),
  method: Type.String(),
  params: Type.Array(Type.Unknown()),
});
export type CallEngineRequest = Static<typeof CallEngineRequest>;

export const InvokeFunctionRequest = Type.Object({
  fnId: Type.Integer({ minimum: 1 }),
  args: Type.Array(Type.Unknown()),
});
export type InvokeFunctionRequest = Static<typeof InvokeFunctionRequest>;

/**
 * One hook point's dispatch in the engine host (see hookDispatch.ts): `sequential` runs the handlers one after
 * the other with the same event and returns each result (a modifying hook; the app merges them as OpenClaw does),
 * `parallel` runs them all at once (a void hook), `message` chains synchronous handlers over `event.message`
 * (tool_result_persist). `timeoutMs` is the per-handler default (a handler's own `timeoutMs` option wins).
 */
export const HookInvocation = Type.Object({
  hook: Type.String(),
  mode: Type.Union([Type.Literal('sequential'), Type.Literal('parallel'), Type.Literal('message')]),
  event: Type.Unknown(),
  ctx: Type.Unknown(),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type HookInvocation = Static<typeof HookInvocation>;

export const RunHooksRequest = Type.Object({ invocations: Type.Array(HookInvocation) });
export type RunHooksRequest = Static<typeof RunHooksRequest>;

export const HookHandlerOutcome = Type.Object({
  pluginId: Type.String(),
  /** what the handler returned (sequential), or the message it produced (message mode) */
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String()),
});
export type HookHandlerOutcome = Static<typeof HookHandlerOutcome>;

export const RunHooksReply = Type.Array(
  Type.Object({
    hook: Type.String(),
    handlers: Type.Array(HookHandlerOutcome),
    /** message mode: the message after the chain */
    message: Type.Optional(Type.Unknown()),
  }),
);
export type RunHooksReply = Static<typeof RunHooksReply>;

// ---- compiled checkers ----

const compiled = new Map<TSchema, TypeCheck<TSchema>>();
function checker<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** Validates `value` against `schema`; returns null when valid, else a one-line description of the first problem. */
export function describeProtocolViolation(schema: TSchema, value: unknown): string | null {
  const check = checker(schema);
  if (check.Check(value)) return null;
  const first = check.Errors(value).First();
  if (!first) return 'does not match the protocol schema';
  return `${first.path || '/'}: ${first.message}`;
}

const PARENT_TO_CHILD_BY_TYPE: Record<string, TSchema> = {
  request: requestOf(ParentOp),
  response: ResponseMessage,
  abort: AbortMessage,
  cancel: CancelMessage,
  ping: PingMessage,
  shutdown: ShutdownMessage,
  release: ReleaseMessage,
};
const CHILD_TO_PARENT_BY_TYPE: Record<string, TSchema> = {
  ready: ReadyMessage,
  request: requestOf(ChildOp),
  response: ResponseMessage,
  abort: AbortMessage,
  pong: PongMessage,
  log: LogMessage,
  fatal: FatalMessage,
  released: ReleasedMessage,
  denied: DeniedMessage,
};

function describeEnvelopeViolation(byType: Record<string, TSchema>, value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'message is not an object';
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(byType, type)) {
    return `unknown message type ${JSON.stringify(type) ?? 'undefined'}`;
  }
  const problem = describeProtocolViolation(byType[type]!, value);
  return problem === null ? null : `"${type}" message ${problem}`;
}

/** null when `value` is a valid message from the app to an engine host; else what is wrong with it. */
export function describeParentMessageViolation(value: unknown): string | null {
  return describeEnvelopeViolation(PARENT_TO_CHILD_BY_TYPE, value);
}
/** null when `value` is a valid message from an engine host to the app; else what is wrong with it. */
export function describeChildMessageViolation(value: unknown): string | null {
  return describeEnvelopeViolation(CHILD_TO_PARENT_BY_TYPE, value);
}

/** Summarises a rejected message for a report without echoing unbounded plugin output. */
export function previewMessage(value: unknown, max = 200): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
