/**
 * The `config.*` handlers of the bridge table: each method calls the config editor of src/app (configEditor.ts),
 * which keeps the editing state (texts read, try-before-save folders) for this table's lifetime.
 */
import { createConfigEditor, type ConfigEditorOptions } from '../src/app';
import type { configMethods, HandlersFor } from '../src/bridge';

export function createConfigHandlers(env: ConfigEditorOptions = {}): HandlersFor<typeof configMethods> {
  const editor = createConfigEditor(env);
  return {
    'config.read': (request) => editor.read(request),
    'config.preview': (request) => editor.preview(request),
    'config.save': (request) => editor.save(request),
    'config.restore': (request) => editor.restore(request),
    'config.tryLanes': (request) => editor.tryLanes(request),
  };
}
