import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

// The layer rules of docs/architecture.md, as allow-lists in eslint.config.js (rule loket/layers). Each row is one
// edge: the importing file, the specifier, and what the message must say the specifier is.

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

function source(filePath: string, importLine: string): string {
  const code = `${importLine}\nexport const used = x;\n`;
  return filePath.endsWith('.svelte') ? `<script lang="ts">\n${code}</script>\n` : code;
}

async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result!.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath} did not parse: ${fatal.message}`); // an allowed edge must not pass vacuously
  return result!.messages.filter((m) => m.ruleId === 'loket/layers').map((m) => m.message);
}

const importOf = (spec: string): string => `import { x } from '${spec}';`;

const NODE = 'a Node built-in module';
const ELECTRON = 'electron, and only src-main/electron, src-main/index.ts and src-preload may import it';

// [importing file, specifier, what the specifier is]
const forbidden: [string, string, string][] = [
  // common: only common and zod
  ['src-main/common/x.ts', '../core/bodysign', 'in src-main/core'],
  ['src-main/common/x.ts', '../db/open', 'in src-main/db'],
  ['src-main/common/x.ts', '../sandbox/server', 'in src-main/sandbox'],
  ['src-main/common/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/common/x.ts', 'node:fs', NODE],
  ['src-main/common/x.ts', 'crypto', NODE],
  ['src-main/common/x.ts', 'fs/promises', NODE],
  ['src-main/common/x.ts', 'electron', ELECTRON],
  ['src-main/common/x.ts', 'qrcode', 'an npm package'],
  // db: only common and db
  ['src-main/db/x.ts', '../core/orders/order-log', 'in src-main/core'],
  ['src-main/db/x.ts', '../core', 'in src-main/core'],
  ['src-main/db/x.ts', '../sandbox/server', 'in src-main/sandbox'],
  ['src-main/db/x.ts', '../adapters/tcp-printer', 'in src-main/adapters'],
  ['src-main/db/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/db/x.ts', 'electron', ELECTRON],
  // core: only common, db and core
  ['src-main/core/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/core/x.ts', '../runtime.ts', 'src-main/runtime.ts'],
  ['src-main/core/x.ts', '../app-host', 'src-main/app-host.ts'],
  ['src-main/core/payments/x.ts', '../../app-host', 'src-main/app-host.ts'],
  ['src-main/core/x.ts', '../sandbox/server', 'in src-main/sandbox'],
  ['src-main/core/gateway/x.ts', '../../sandbox/server', 'in src-main/sandbox'],
  ['src-main/core/x.ts', '../web/web-host', 'in src-main/web'],
  ['src-main/core/x.ts', '../adapters/tcp-printer', 'in src-main/adapters'],
  ['src-main/core/x.ts', '../cli/format', 'in src-main/cli'],
  ['src-main/core/x.ts', '../cli', 'src-main/cli.ts'],
  ['src-main/core/x.ts', '../electron/ipc-api', 'in src-main/electron'],
  ['src-main/core/x.ts', '..', 'src-main/index.ts'],
  ['src-main/core/x.ts', '../index', 'src-main/index.ts'],
  ['src-main/core/x.ts', 'electron', ELECTRON],
  ['src-main/core/x.ts', '../../src-renderer/src/lib/format', 'in src-renderer'],
  ['src-main/core/x.ts', '../../resources/items.json', 'resources/items.json, outside the layered folders'],
  // store-book: only common, db, core and store-book (a host hands it the keychain)
  ['src-main/store-book/x.ts', '../adapters/keychain-secret-store', 'in src-main/adapters'],
  ['src-main/store-book/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/store-book/x.ts', '../app-host', 'src-main/app-host.ts'],
  ['src-main/store-book/x.ts', '../cli/exit-codes', 'in src-main/cli'],
  ['src-main/store-book/x.ts', '../web/web-host', 'in src-main/web'],
  ['src-main/store-book/x.ts', '../sandbox/server', 'in src-main/sandbox'],
  ['src-main/store-book/x.ts', 'electron', ELECTRON],
  ['src-main/core/x.ts', '../store-book/sync', 'in src-main/store-book'],
  ['src-main/db/x.ts', '../store-book/sync', 'in src-main/store-book'],
  ['src-main/adapters/x.ts', '../store-book/sync', 'in src-main/store-book'],
  ['src-renderer/src/x.ts', '../../src-main/store-book/sync', 'in src-main/store-book'],
  // adapters: only common, core and adapters
  ['src-main/adapters/x.ts', '../web/web-host', 'in src-main/web'],
  ['src-main/adapters/x.ts', '../sandbox/server', 'in src-main/sandbox'],
  ['src-main/adapters/x.ts', '../db/open', 'in src-main/db'],
  ['src-main/adapters/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/adapters/x.ts', 'electron', ELECTRON],
  // sandbox: only common, core and sandbox
  ['src-main/sandbox/x.ts', '../web/web-host', 'in src-main/web'],
  ['src-main/sandbox/x.ts', '../cli/exit-codes', 'in src-main/cli'],
  ['src-main/sandbox/x.ts', '../cli', 'src-main/cli.ts'],
  ['src-main/sandbox/x.ts', '../adapters/env-secret-store', 'in src-main/adapters'],
  ['src-main/sandbox/x.ts', '../runtime', 'src-main/runtime.ts'],
  ['src-main/sandbox/x.ts', '../app-host', 'src-main/app-host.ts'],
  ['src-main/sandbox/x.ts', '../electron/main-window', 'in src-main/electron'],
  ['src-main/sandbox/x.ts', 'electron', ELECTRON],
  // runtime.ts, app-host.ts: not the hosts
  ['src-main/runtime.ts', './web/web-host', 'in src-main/web'],
  ['src-main/runtime.ts', './cli/format', 'in src-main/cli'],
  ['src-main/runtime.ts', './cli', 'src-main/cli.ts'],
  ['src-main/runtime.ts', './index', 'src-main/index.ts'],
  ['src-main/runtime.ts', './electron/ipc-api', 'in src-main/electron'],
  ['src-main/runtime.ts', 'electron', ELECTRON],
  ['src-main/app-host.ts', './web/command', 'in src-main/web'],
  ['src-main/app-host.ts', './electron/main-window', 'in src-main/electron'],
  ['src-main/app-host.ts', 'electron', ELECTRON],
  ['src-main/host/x.ts', '../web/web-host', 'in src-main/web'],
  ['src-main/host/x.ts', 'electron', ELECTRON],
  ['src-main/core/x.ts', '../host/printing', 'in src-main/host'],
  // web: not the Electron shell
  ['src-main/web/x.ts', 'electron', ELECTRON],
  ['src-main/web/x.ts', '../electron/ipc-api', 'in src-main/electron'],
  ['src-main/web/x.ts', '../index', 'src-main/index.ts'],
  // cli: not the Electron shell
  ['src-main/cli/x.ts', 'electron', ELECTRON],
  ['src-main/cli/x.ts', '../electron/main-window', 'in src-main/electron'],
  ['src-main/cli/x.ts', '../index', 'src-main/index.ts'],
  ['src-main/cli.ts', 'electron', ELECTRON],
  ['src-main/cli.ts', './electron/ipc-api', 'in src-main/electron'],
  ['src-main/cli.ts', './index', 'src-main/index.ts'],
  // Electron shell: all of src-main, but not the other processes' code
  ['src-main/electron/x.ts', '../../src-renderer/src/api', 'in src-renderer'],
  ['src-main/index.ts', '../src-preload/index', 'in src-preload'],
  // preload: electron and src-main/common only, no Node
  ['src-preload/index.ts', '../src-main/core/app-service', 'in src-main/core'],
  ['src-preload/index.ts', '../src-main/db/open', 'in src-main/db'],
  ['src-preload/index.ts', '../src-main/sandbox/server', 'in src-main/sandbox'],
  ['src-preload/index.ts', '../src-main/electron/ipc-api', 'in src-main/electron'],
  ['src-preload/index.ts', '../src-main/index', 'src-main/index.ts'],
  ['src-preload/index.ts', '../src-renderer/src/api', 'in src-renderer'],
  ['src-preload/index.ts', 'node:fs', NODE],
  ['src-preload/index.ts', 'path', NODE],
  // renderer: src-main/common only, no Node, no electron
  ['src-renderer/src/x.ts', '../../src-main/core/bodysign', 'in src-main/core'],
  ['src-renderer/src/x.ts', '../../src-main/db/open', 'in src-main/db'],
  ['src-renderer/src/x.ts', '../../src-main/sandbox/server', 'in src-main/sandbox'],
  ['src-renderer/src/x.ts', '../../src-main/web/web-host', 'in src-main/web'],
  ['src-renderer/src/x.ts', '../../src-main/app-host', 'src-main/app-host.ts'],
  ['src-renderer/src/x.ts', '../../src-preload/index', 'in src-preload'],
  ['src-renderer/src/x.ts', 'node:fs', NODE],
  ['src-renderer/src/x.ts', 'events', NODE],
  ['src-renderer/src/x.ts', 'electron', ELECTRON],
  ['src-renderer/src/components/cashier/X.svelte', '../../../../src-main/core/bodysign', 'in src-main/core'],
  ['src-renderer/src/components/cashier/X.svelte', 'node:path', NODE],
];

// [importing file, specifier]
const allowed: [string, string][] = [
  ['src-main/common/x.ts', './retcodes'],
  ['src-main/common/x.ts', '../common/order'],
  ['src-main/common/x.ts', 'zod'],
  ['src-main/db/x.ts', '../common/order'],
  ['src-main/db/x.ts', './migrations'],
  ['src-main/db/x.ts', 'better-sqlite3'],
  ['src-main/db/x.ts', 'node:fs'],
  ['src-main/core/x.ts', '../common/order'],
  ['src-main/core/x.ts', '../db/open'],
  ['src-main/core/x.ts', './ports'],
  ['src-main/core/payments/x.ts', '../../common/order'],
  ['src-main/core/payments/x.ts', '../../db/open'],
  ['src-main/core/payments/x.ts', '../gateway/client'],
  ['src-main/core/x.ts', 'node:crypto'],
  ['src-main/core/x.ts', 'node-fetch'],
  ['src-main/store-book/x.ts', '../core/ports'],
  ['src-main/store-book/x.ts', '../db/open'],
  ['src-main/store-book/x.ts', '../common/reports'],
  ['src-main/store-book/x.ts', './sync'],
  ['src-main/store-book/x.ts', 'pg'],
  ['src-main/store-book/x.ts', 'node:crypto'],
  ['src-main/cli/x.ts', '../store-book/sync-worker'],
  ['src-main/app-host.ts', './store-book/sync-worker'],
  ['src-main/app-host.ts', './host/order-runtime'],
  ['src-main/host/x.ts', '../store-book/sync-worker'],
  ['src-main/host/x.ts', '../runtime'],
  ['src-main/adapters/x.ts', '../core/ports'],
  ['src-main/adapters/x.ts', '../common/order'],
  ['src-main/adapters/x.ts', './tcp-printer'],
  ['src-main/adapters/x.ts', 'node:net'],
  ['src-main/sandbox/x.ts', '../common/retcodes'],
  ['src-main/sandbox/x.ts', '../core/bodysign'],
  ['src-main/sandbox/x.ts', './server'],
  ['src-main/sandbox/x.ts', 'qrcode'],
  ['src-main/runtime.ts', './db/open'],
  ['src-main/runtime.ts', './sandbox/server'],
  ['src-main/runtime.ts', './adapters/env-secret-store'],
  ['src-main/runtime.ts', './core/ports'],
  ['src-main/runtime.ts', './common/settings'],
  ['src-main/app-host.ts', './runtime'],
  ['src-main/app-host.ts', './adapters/tcp-printer'],
  ['src-main/web/x.ts', '../app-host'],
  ['src-main/web/x.ts', '../sandbox/command'],
  ['src-main/web/x.ts', '../core/http/read-body'],
  ['src-main/web/x.ts', '../runtime'],
  ['src-main/web/x.ts', './security'],
  ['src-main/cli/x.ts', '../sandbox/command'],
  ['src-main/cli/x.ts', '../runtime'],
  ['src-main/cli/x.ts', '../core/gateway/client'],
  ['src-main/cli/x.ts', './format'],
  ['src-main/cli.ts', './sandbox/command'],
  ['src-main/cli.ts', './web/command'],
  ['src-main/cli.ts', './cli/order-commands'],
  ['src-main/electron/x.ts', '../core/app-service'],
  ['src-main/electron/x.ts', '../app-host'],
  ['src-main/electron/x.ts', '../common/api'],
  ['src-main/electron/x.ts', './renderer-source'],
  ['src-main/electron/x.ts', 'electron'],
  ['src-main/index.ts', './app-host'],
  ['src-main/index.ts', './electron/ipc-api'],
  ['src-main/index.ts', 'electron'],
  ['src-main/index.ts', 'node:path'],
  ['src-preload/index.ts', 'electron'],
  ['src-preload/index.ts', '../src-main/common/api'],
  ['src-preload/index.ts', './other'],
  ['src-renderer/src/x.ts', '../../src-main/common/api'],
  ['src-renderer/src/x.ts', './lib/format'],
  ['src-renderer/src/x.ts', './app.css?inline'],
  ['src-renderer/src/x.ts', 'svelte'],
  ['src-renderer/src/x.ts', 'qrcode'],
  ['src-renderer/src/components/cashier/X.svelte', '../../../../src-main/common/order'],
  ['src-renderer/src/components/cashier/X.svelte', '../shared/Dialog.svelte'],
  // test/ and scripts/ are unrestricted
  ['test/node/x.test.ts', 'electron'],
  ['test/node/x.test.ts', '../../src-main/core/bodysign'],
  ['scripts/x.ts', '../src-main/app-host'],
];

describe('layer rules (eslint.config.js, rule loket/layers)', () => {
  it.each(forbidden)('%s may not import %s', async (file, spec, what) => {
    const messages = await layerMessages(file, source(file, importOf(spec)));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`(docs/architecture.md): '${spec}' is ${what}.`);
  });

  it.each(allowed)('%s may import %s', async (file, spec) => {
    expect(await layerMessages(file, source(file, importOf(spec)))).toEqual([]);
  });

  it('names the importing layer, its allow-list and the forbidden target in plain words', async () => {
    expect(await layerMessages('src-main/core/x.ts', source('src-main/core/x.ts', importOf('../app-host')))).toEqual([
      "src-main/core may import only common, db and core, Node built-ins and npm packages (docs/architecture.md): '../app-host' is src-main/app-host.ts.",
    ]);
  });

  it.each([
    ['import type', "import type { x } from '../runtime';"],
    ['export from', "export { x } from '../runtime';"],
    ['export * from', "export * from '../runtime';"],
    ['import()', "const x = await import('../runtime');"],
    ['import = require()', "import x = require('../runtime');"],
    ['require()', "const x = require('../runtime');"],
    ['type-level import()', "let x: import('../runtime').Runtime;"],
  ])('checks %s', async (_form, line) => {
    const messages = await layerMessages('src-main/core/x.ts', `${line}\nexport const used = x;\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("'../runtime' is src-main/runtime.ts.");
  });

  it('refuses a file in src-main that is in no layer, until the table places it', async () => {
    expect(await layerMessages('src-main/newfolder/x.ts', 'export const x = 1;\n')).toEqual([
      'src-main/newfolder/x.ts is in no layer of docs/architecture.md; add its folder to LAYERS in eslint.config.js.',
    ]);
  });
});
