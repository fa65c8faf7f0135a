// Type-only stand-in for the one SDK module this plugin imports. At runtime OpenClaw (or any compatible host)
// provides "openclaw/plugin-sdk/plugin-entry"; this declaration only lets `tsc --noEmit` check the plugin
// without installing the openclaw package.

declare module 'openclaw/plugin-sdk/plugin-entry' {
  export interface PluginEntry<Api> {
    id: string;
    name: string;
    description?: string;
    register(api: Api): void | Promise<void>;
  }
  export function definePluginEntry<Api>(entry: PluginEntry<Api>): PluginEntry<Api>;
}
