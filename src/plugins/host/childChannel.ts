/**
 * The engine host's end of its channel to the app: the fd 3 line pipe when started by the Node transport
 * (frameChannel.ts), else `process.send` (Electron's utility-process adapter provides it). Either way each message
 * goes out as JSON text, so the app can measure it before parsing it.
 */
import { Socket } from 'node:net';
import { FRAME_CHANNEL_FD, FRAME_CHANNEL_FLAG, FrameReader, frameOf } from './frameChannel';

export interface ChildChannel {
  /** posts one message; `then` runs once it was handed to the OS (the fatal report waits for it) */
  send(message: Record<string, unknown>, then?: () => void): void;
  /** posts several messages in order (one write where the channel allows it) */
  sendMany(messages: Record<string, unknown>[]): void;
  onMessage(listener: (message: unknown) => void): void;
  /** the app closed the channel (it exited, or it is done with this host) */
  onClose(listener: () => void): void;
}

function lineChannel(): ChildChannel {
  const socket = new Socket({ fd: FRAME_CHANNEL_FD, readable: true, writable: true });
  const listeners: ((message: unknown) => void)[] = [];
  let open = true;
  // what the app sends is trusted and may be large (a whole history): no cap on this side
  const reader = new FrameReader(
    Infinity,
    (text) => {
      for (const listener of listeners) listener(JSON.parse(text));
    },
    () => undefined,
  );
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('error', () => undefined);
  return {
    send(message, then) {
      if (!open) return;
      socket.write(frameOf(message), then ? () => then() : undefined);
    },
    sendMany(messages) {
      if (open) socket.write(messages.map(frameOf).join(''));
    },
    onMessage(listener) {
      listeners.push(listener);
    },
    onClose(listener) {
      socket.on('close', () => {
        open = false;
        listener();
      });
    },
  };
}

function processChannel(): ChildChannel {
  return {
    send(message, then) {
      if (!process.send || !process.connected) return;
      process.send(JSON.stringify(message), undefined, undefined, then ? () => then() : undefined);
    },
    sendMany(messages) {
      for (const message of messages) this.send(message);
    },
    onMessage(listener) {
      process.on('message', (raw: unknown) => listener(typeof raw === 'string' ? JSON.parse(raw) : raw));
    },
    onClose(listener) {
      process.on('disconnect', listener);
    },
  };
}

/** This process's channel to the app, or undefined when it was not started by ContextScope. */
export function openChildChannel(): ChildChannel | undefined {
  if (process.argv.includes(FRAME_CHANNEL_FLAG)) return lineChannel();
  return process.send ? processChannel() : undefined;
}
