import { appMethods } from './app';
import { batchMethods } from './batch';
import { configMethods } from './config';
import { pluginsMethods } from './plugins';
import { replayMethods } from './replay';
import { workspaceMethods } from './workspace';

/**
 * Every bridge method, by name. A namespace file `methods/<ns>.ts` exports `<ns>Methods = defineMethods({...})`
 * and is registered here with one spread line. `main/handlers.ts` must then provide a handler for each new name
 * (the type of the handler table enforces it).
 */
export const methods = {
  ...appMethods,
  ...batchMethods,
  ...configMethods,
  ...pluginsMethods,
  ...replayMethods,
  ...workspaceMethods,
};

export * from './app';
export * from './batch';
export * from './config';
export * from './plugins';
export * from './replay';
export * from './replayRequest';
export * from './workspace';
