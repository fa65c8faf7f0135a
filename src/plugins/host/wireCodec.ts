/**
 * Encodes arbitrary values into JSON-safe trees for the engine-host channel, and back.
 *
 * Ordinary JSON loses what engine calls depend on: `availableTools` is a Set, results carry `undefined`
 * fields, errors carry `name`/`code`/`cause`/`issues` (the runtime's strict-validator retry reads them),
 * `prepareSubagentSpawn` returns a `rollback` function and `runtimeContext.llm.complete` is a callback.
 * Tagged nodes (`{"$cs": <tag>, ...}`) carry these; a plain object that happens to own a `$cs` key is
 * escaped as an `object` node so decoding is unambiguous. Functions and AbortSignals are not copied:
 * they become references resolved by the side that exported them (see RpcPeer). An app function the engine host
 * has its own copy of (the offline summarizer's `complete`) goes as `{"$cs":"provided","name":..}` instead, and
 * the host calls its copy (hostProvidedFunctions.ts).
 *
 * Message slots (plain objects inside an array under a `messages` key, or under a `message` key) go through the
 * message reference cache when the context has one (see messageRefTable.ts): `{"$cs":"def","id":n,"value":{..}}`
 * sends an object in full and names it, `{"$cs":"ref","side":s,"id":n}` refers to one sent before, and a
 * `messages` array holding runs of consecutive references is sent as `{"$cs":"array","items":[..]}` whose items
 * may be `{"$cs":"refs","side":s,"from":n,"count":k}` ranges.
 *
 * A first-time message that is a shallow copy of one the engine host holds is sent as a `like` node (its
 * differences, wireLike.ts); the engine host sends a fresh engine message equal to one it sent before as a `ref` to
 * it (wireTwin.ts).
 *
 * The app sends a subtree that is plain JSON already (nothing tagged inside, so JSON carries it exactly) as the
 * object itself rather than a copy, and marks the larger ones (`{"$cs":"json","value":..}`) so the engine host
 * takes them as parsed instead of walking them. Only the engine host accepts these nodes: the app walks all a
 * host sends.
 *
 * The parts: wireFormat.ts (tag, sides, error), wireContext.ts (what the channel provides), wireEncode.ts and
 * wireDecode.ts (one method per node kind).
 */
export { WIRE_TAG, WireFormatError, type WireSide } from './wireFormat';
export { DATA_ONLY_DECODE, DATA_ONLY_ENCODE, type DecodeContext, type EncodeContext } from './wireContext';
export { encodeWire } from './wireEncode';
export { decodeWire } from './wireDecode';
