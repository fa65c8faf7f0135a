/** A real second process that appends groups of lines to a file (a session being written). */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const SCRIPT = `
  const fs = require('node:fs');
  const readline = require('node:readline');
  const [file, groupsJson, delay] = process.argv.slice(1);
  const groups = JSON.parse(groupsJson);
  let i = 0;
  const append = () => {
    fs.appendFileSync(file, groups[i++].join('\\n') + '\\n');
    process.stdout.write('appended ' + i + '\\n');
  };
  if (Number(delay) >= 0) {
    const next = () => {
      if (i === groups.length) return;
      append();
      setTimeout(next, Number(delay));
    };
    next();
  } else {
    // stepped: one group per line on stdin, until every group is written
    const lines = readline.createInterface({ input: process.stdin });
    lines.on('line', () => {
      append();
      if (i === groups.length) lines.close();
    });
  }`;

function exitOf(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appender exited with ${code}`)))),
  );
}

/** Appends one group every `delayMs`. */
export function appendInChild(file: string, groups: string[][], delayMs: number): Promise<void> {
  const child = spawn(process.execPath, ['-e', SCRIPT, file, JSON.stringify(groups), String(delayMs)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return exitOf(child);
}

/**
 * Appends a group each time `next()` is called (it resolves once the group is in the file): the test decides when
 * the writer goes on — after the follower saw the previous group — so no pass can miss a step however slow the
 * machine is.
 */
export function steppedAppender(file: string, groups: string[][]) {
  const child = spawn(process.execPath, ['-e', SCRIPT, file, JSON.stringify(groups), '-1'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', () => waiting.shift()?.());
  let written = 0;
  return {
    get written() {
      return written;
    },
    next(): Promise<void> {
      written++;
      const appended = new Promise<void>((resolve) => waiting.push(resolve));
      child.stdin!.write('next\n');
      if (written === groups.length) child.stdin!.end();
      return appended;
    },
    exited: exitOf(child),
  };
}
