/**
 * The engine registry of one runtime instance (behaviour §2.2): entries `{factory, owner, lifecycle}` keyed by engine
 * id, with OpenClaw's owner and refresh rules. Pure bookkeeping; the runtime layers quarantine clearing on top.
 */
import type { ContextEngineFactory, ContextEngineLifecycle, ContextEngineOwner } from '../contract';

/** The owner of the built-in `legacy` engine. */
export const CORE_CONTEXT_ENGINE_OWNER = 'core';
/** The owner of engines registered through the public SDK `registerContextEngine`. */
export const PUBLIC_SDK_CONTEXT_ENGINE_OWNER = 'public-sdk';
/** Engine id reserved for core. */
export const RESERVED_CONTEXT_ENGINE_ID = 'legacy';

/** The owner string of a plugin's registrations. */
export function pluginContextEngineOwner(pluginId: string): `plugin:${string}` {
  return `plugin:${pluginId}`;
}

/** One registry entry. */
export interface ContextEngineRegistration {
  id: string;
  factory: ContextEngineFactory;
  owner: ContextEngineOwner;
  lifecycle: ContextEngineLifecycle;
}

/** Options of `registerContextEngineForOwner`. */
export interface RegisterContextEngineOptions {
  allowSameOwnerRefresh?: boolean;
  lifecycle?: ContextEngineLifecycle;
}

/** Result of a registration: ok, or the owner that holds the id. */
export interface RegisterContextEngineResult {
  ok: boolean;
  existingOwner?: string;
}

/** Registration result plus whether the entry was written. */
export interface RegistryWriteOutcome {
  result: RegisterContextEngineResult;
  /** true when the entry was (re)written */
  stored: boolean;
}

/** Trim and check an owner string; throws OpenClaw's message for an empty or non-string owner. */
export function normalizeContextEngineOwner(owner: unknown): string {
  const normalized = typeof owner === 'string' ? owner.trim() : '';
  if (!normalized) {
    throw new Error(`registerContextEngineForOwner: owner must be a non-empty string, got ${JSON.stringify(owner)}`);
  }
  return normalized;
}

/** Registered engines by id. */
export class ContextEngineRegistry {
  private readonly entries = new Map<string, ContextEngineRegistration>();

  /** Apply the owner/refresh table of behaviour §2.2. */
  register(
    id: string,
    factory: ContextEngineFactory,
    owner: unknown,
    options: RegisterContextEngineOptions = {},
  ): RegistryWriteOutcome {
    const normalizedOwner = normalizeContextEngineOwner(owner);
    const lifecycle: ContextEngineLifecycle = options.lifecycle ?? 'runtime';
    if (id === RESERVED_CONTEXT_ENGINE_ID && normalizedOwner !== CORE_CONTEXT_ENGINE_OWNER) {
      return { result: { ok: false, existingOwner: CORE_CONTEXT_ENGINE_OWNER }, stored: false };
    }
    const existing = this.entries.get(id);
    if (existing) {
      if (existing.owner !== normalizedOwner) {
        return { result: { ok: false, existingOwner: existing.owner }, stored: false };
      }
      // A discovery pass must not clobber a live factory.
      if (existing.lifecycle === 'runtime' && lifecycle === 'readOnlyDiscovery') {
        return { result: { ok: true }, stored: false };
      }
      if (options.allowSameOwnerRefresh !== true) {
        return { result: { ok: false, existingOwner: existing.owner }, stored: false };
      }
    }
    this.entries.set(id, { id, factory, owner: normalizedOwner, lifecycle });
    return { result: { ok: true }, stored: true };
  }

  get(id: string): ContextEngineRegistration | undefined {
    const entry = this.entries.get(id);
    return entry ? { ...entry } : undefined;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Registered ids, sorted (as OpenClaw lists them, e.g. in "Available engines: …"). */
  ids(): string[] {
    return [...this.entries.keys()].sort();
  }

  list(): ContextEngineRegistration[] {
    return [...this.entries.values()].map((entry) => ({ ...entry }));
  }

  /** Remove every id `owner` holds; returns the removed ids. */
  removeOwner(owner: string): string[] {
    const removed: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.owner === owner) removed.push(id);
    }
    for (const id of removed) this.entries.delete(id);
    return removed;
  }
}
