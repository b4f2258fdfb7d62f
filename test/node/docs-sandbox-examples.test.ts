import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';

/**
 * docs/sandbox.md promises its curl examples work as written. This runs every `sh` block of it, in
 * order, against a sandbox with the documented defaults (on a free port), and checks each example's
 * `# retcode:` or `# output:` line.
 */
const doc = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

interface Example {
  commands: string;
  expect: { retcode: string } | { output: string };
}

function examples(): { prelude: string; list: Example[] } {
  const [prelude, ...rest] = blocks;
  const list: Example[] = [];
  for (const block of rest) {
    let commands = '';
    for (const line of block.split('\n')) {
      const m = /^# (retcode|output): (.+)$/.exec(line);
      if (m) {
        list.push({ commands, expect: m[1] === 'retcode' ? { retcode: m[2]! } : { output: m[2]! } });
        commands = '';
      } else commands += line + '\n';
    }
    expect(commands.trim(), `an example without an expectation:\n${commands}`).toBe('');
  }
  return { prelude: prelude!, list };
}

describe('docs/sandbox.md examples', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  it('every curl example answers as documented', async () => {
    const { prelude, list } = examples();
    expect(prelude).toContain('BASE=http://127.0.0.1:8787');
    expect(list.length).toBeGreaterThanOrEqual(20);
    const script = [
      'set -u',
      prelude.replace('BASE=http://127.0.0.1:8787', `BASE=${sandbox.url}`),
      ...list.map((e, i) => `echo "@@EXAMPLE ${i}"\n${e.commands}`),
    ].join('\n');
    // Asynchronous: the sandbox answers from this same process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
    const outputs = out.split(/^@@EXAMPLE \d+\n/m).slice(1);
    expect(outputs).toHaveLength(list.length);
    list.forEach((example, i) => {
      const got = outputs[i]!;
      if ('retcode' in example.expect) expect(got, example.commands).toContain(`"retcode":"${example.expect.retcode}"`);
      else expect(got.trim(), example.commands).toBe(example.expect.output);
    });
  });
});
