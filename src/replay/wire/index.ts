/** OpenClaw's request shaping after the engine, per release: the "as sent" view of a turn. */
export { wireProfileFor, type WireProfile } from './wireProfile';
export {
  shapeWireView,
  timestampStamp,
  runtimeLine,
  IDLE_INTERNAL_CONTEXT,
  type WireContext,
  type WireSource,
} from './shapeWire';
export { attachWireViews, withWireViews, wireViewOf } from './attachWireViews';
export { renderChatMessages, type ChatMessage } from './renderChat';
