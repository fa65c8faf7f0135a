/**
 * The Recording and its parts, as the renderer sees them: derived from the bridge's `replay.get` response type
 * (the renderer may only `import type` from src/bridge and src/contract, and the bridge carries the schema).
 */
import type { ReplayGetResponse } from '../../src/bridge';

export type Recording = NonNullable<ReplayGetResponse['recording']>;
export type LaneRecord = Recording['lanes'][number];
export type TurnRecord = Recording['turns'][string][number];
export type MessageRecord = Recording['messages'][string];
export type AssembledRef = TurnRecord['assembled'][number];
export type Provenance = AssembledRef['provenance'];
export type ReplayEvent = TurnRecord['events'][number];
export type EngineCall = TurnRecord['calls'][number];
export type Finding = Recording['findings'][number];
export type SessionInfo = Recording['session'];
export type ReplayStatus = ReplayGetResponse['status'];
/** Half-open [from, to) into a session's messageKeys. */
export type IndexRange = TurnRecord['omitted']['dropped'][number];
