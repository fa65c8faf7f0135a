// Streams an OpenClaw session transcript (JSONL v3) and returns the messages on its active branch.
//
// Entries form a tree through parentId; the active branch runs from the leaf (the last appended entry, unless a
// `leaf` entry moved it) back to the root. Files without ids (v1, or hand-written fixtures) are read in file
// order. Lines that are not JSON are skipped and counted, so one torn write does not lose the session.

import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";

import type { AgentMessage } from "./types.ts";

interface TranscriptEntry {
  id?: string;
  parentId?: string | null;
  message?: AgentMessage;
}

export interface TranscriptRead {
  messages: AgentMessage[];
  skippedLines: number;
}

function isMessage(value: unknown): value is AgentMessage {
  return !!value && typeof value === "object" && typeof (value as { role?: unknown }).role === "string";
}

export async function transcriptExists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export async function readTranscriptMessages(file: string): Promise<TranscriptRead> {
  const entries: TranscriptEntry[] = [];
  const byId = new Map<string, TranscriptEntry>();
  let leafId: string | null | undefined;
  let skippedLines = 0;
  let everyEntryHasId = true;

  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      skippedLines++;
      continue;
    }
    if (parsed.type === "session") continue;
    const id = typeof parsed.id === "string" && parsed.id !== "" ? parsed.id : undefined;
    if (id === undefined) everyEntryHasId = false;
    if (parsed.type === "leaf") {
      leafId = typeof parsed.targetId === "string" ? parsed.targetId : null;
      continue;
    }
    const entry: TranscriptEntry = {
      id,
      parentId: typeof parsed.parentId === "string" ? parsed.parentId : null,
      message: parsed.type === "message" && isMessage(parsed.message) ? parsed.message : undefined,
    };
    entries.push(entry);
    if (id !== undefined) byId.set(id, entry);
    leafId = id; // appending an entry makes it the leaf
  }

  if (!everyEntryHasId || entries.length === 0) {
    return { messages: entries.flatMap((e) => (e.message ? [e.message] : [])), skippedLines };
  }

  const branch: AgentMessage[] = [];
  const visited = new Set<string>();
  let cursor = leafId ? byId.get(leafId) : undefined;
  while (cursor && cursor.id !== undefined && !visited.has(cursor.id)) {
    visited.add(cursor.id);
    if (cursor.message) branch.push(cursor.message);
    cursor = cursor.parentId ? byId.get(cursor.parentId) : undefined;
  }
  return { messages: branch.reverse(), skippedLines };
}
