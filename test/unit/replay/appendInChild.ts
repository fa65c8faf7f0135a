/** A real second process that appends groups of lines to a file, one group every `delayMs` (a session being written). */
import { spawn } from 'node:child_process';

export function appendInChild(file: string, groups: string[][], delayMs: number): Promise<void> {
  const script = `
    const fs = require('node:fs');
    const [file, groupsJson, delay] = process.argv.slice(1);
    const groups = JSON.parse(groupsJson);
    let i = 0;
    const next = () => {
      if (i === groups.length) return;
      fs.appendFileSync(file, groups[i++].join('\\n') + '\\n');
      setTimeout(next, Number(delay));
    };
    next();`;
  const child = spawn(process.execPath, ['-e', script, file, JSON.stringify(groups), String(delayMs)], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appender exited with ${code}`)))),
  );
}
