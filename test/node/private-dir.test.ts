// The data folder is made private (0700), but a shared folder such as /tmp is never changed: opening a database
// file placed straight into /tmp once turned /tmp into 0700 and locked every other account out of it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePrivateDir } from '../../src-main/db/open';
import { tempDir } from './helpers/loket';

const dirs: { remove: () => void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

const modeOf = (path: string) => statSync(path).mode & 0o7777;

describe.skipIf(process.platform === 'win32')('makePrivateDir', () => {
  it('creates the data folder 0700 and tightens an existing one of ours', () => {
    const parent = tempDir('loket-private-');
    dirs.push(parent);
    const fresh = join(parent.path, 'data');
    makePrivateDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);
    const loose = join(parent.path, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o755);
    makePrivateDir(loose);
    expect(modeOf(loose)).toBe(0o700);
  });

  it('leaves a shared folder with the sticky bit (like /tmp) as it is', () => {
    const parent = tempDir('loket-private-');
    dirs.push(parent);
    const shared = join(parent.path, 'shared-tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    makePrivateDir(shared);
    expect(modeOf(shared)).toBe(0o1777);
  });
});
