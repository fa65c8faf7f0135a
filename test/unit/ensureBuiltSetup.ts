/** Global setup of the node project: out/ is a build of the current sources (see builtApp.ts). */
// @ts-expect-error -- a plain .mjs script of the repository, without types
import { ensureBuilt } from '../../scripts/lib/buildState.mjs';
import { PROJECT_ROOT } from './builtApp';

export default function setup(): void {
  (ensureBuilt as (root: string) => void)(PROJECT_ROOT);
}
