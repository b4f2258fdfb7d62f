// What can be checked of packaging on a machine that cannot download Electron: the electron-builder configuration
// as electron-builder itself loads and validates it, the build's native modules, and the fuses hook on a stand-in
// binary that carries a real fuse wire.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import viteConfig, { NATIVE_MODULES } from '../../electron.vite.config';
import { tempDir } from './helpers/loket';

const root = join(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const dir = tempDir('loket-packaging-');
afterAll(() => dir.remove());

type Config = Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  afterPack: string;
  linux: { target: string[]; executableName: string };
  win: { target: string[] };
};
interface FusesHook {
  fuseConfig(platform: string, arch: string): Record<string, unknown>;
  electronBinary(context: object): string;
  afterPack(context: object, flip?: (file: string, config: object) => Promise<unknown>): Promise<void>;
  default: unknown;
}

const load = async <T>(file: string) => (await import(pathToFileURL(join(root, file)).href)) as T;

describe('the electron-builder configuration', () => {
  it('is what electron-builder loads from --config, and its schema accepts it', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<Config>;
      validateConfiguration(config: object, logger: object): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => object };
    const config = await getConfig(root, join(root, 'scripts/electron-builder.config.mjs'), null);
    const own = (await load<{ default: Config }>('scripts/electron-builder.config.mjs')).default;
    // electron-builder normalises `files` into a file set; everything else is ours as written.
    expect(config).toMatchObject({ ...own, files: [{ filter: own.files }] });
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The schema check is real: a wrong option is refused.
    await expect(validateConfiguration({ ...config, asar: 'yes' }, new DebugLogger(false))).rejects.toThrow(
      /configuration/,
    );
  });

  it('Linux AppImage and deb, Windows NSIS; asar with native modules unpacked; fuses after packing', async () => {
    const config = (await load<{ default: Config }>('scripts/electron-builder.config.mjs')).default;
    expect(config).toMatchObject({
      productName: 'Loket',
      asar: true,
      asarUnpack: ['**/*.node'],
      npmRebuild: false,
      afterPack: './scripts/electron-fuses.mjs',
      linux: { target: ['AppImage', 'deb'], executableName: 'loket' },
      win: { target: ['nsis'] },
    });
    // The build and the catalogues the core reads next to it (core/catalogue.ts: ../../resources from out/main).
    expect(config.files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'resources/**']),
    );
    const hook = await load<FusesHook>(config.afterPack);
    expect(hook.default).toBe(hook.afterPack);
  });

  it('native modules stay out of the main bundle; each preload is one self-contained CommonJS file', () => {
    expect(NATIVE_MODULES).toEqual(['better-sqlite3', 'keytar']);
    const config = viteConfig as {
      main: { build: { rollupOptions: { external: string[] } } };
      preload: {
        build: { isolatedEntries: boolean; rollupOptions: { input: Record<string, string>; output: object } };
      };
    };
    expect(config.main.build.rollupOptions.external).toEqual(expect.arrayContaining(NATIVE_MODULES));
    expect(config.preload.build.isolatedEntries).toBe(true);
    expect(Object.keys(config.preload.build.rollupOptions.input).sort()).toEqual(['display', 'index']);
    expect(config.preload.build.rollupOptions.output).toEqual({ format: 'cjs', entryFileNames: '[name].cjs' });
  });

  it('native modules are rebuilt for Electron only by `npm run package`, never on install', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts[hook]).toBeUndefined();
    expect(manifest.scripts.package).toBe('node scripts/package.mjs');
    const script = readFileSync(join(root, 'scripts/package.mjs'), 'utf8');
    expect(script).toContain("export const NATIVE_MODULES = ['better-sqlite3', 'keytar'];");
    expect(script).toContain("import('@electron/rebuild')");
    expect(script).toContain("['rebuild', ...NATIVE_MODULES]");
  });

  it('packaging refuses to go on without keytar (optional for running from source, never for an installer)', async () => {
    const { missingNativeModules } = await load<{
      missingNativeModules(isInstalled?: (name: string) => boolean): string[];
    }>('scripts/package.mjs');
    // Imported, the script only defines: it packages when run (`npm run package`), not here.
    expect(missingNativeModules()).toEqual([]);
    expect(missingNativeModules((name) => name !== 'keytar')).toEqual(['keytar']);
    expect(
      missingNativeModules(() => {
        throw new Error('Cannot find module');
      }),
    ).toEqual(['better-sqlite3', 'keytar']);
  });
});

describe('the fuses', () => {
  const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
  const ON = 49;
  const OFF = 48;

  it('every fuse decided: Node off for good, cookies encrypted, only app.asar, checked', async () => {
    const { fuseConfig } = await load<FusesHook>('scripts/electron-fuses.mjs');
    expect(fuseConfig('linux', 'x64')).toEqual({
      version: '1',
      strictlyRequireAllFuses: true,
      resetAdHocDarwinSignature: false,
      0: false, // RunAsNode
      1: true, // EnableCookieEncryption
      2: false, // EnableNodeOptionsEnvironmentVariable
      3: false, // EnableNodeCliInspectArguments
      4: true, // EnableEmbeddedAsarIntegrityValidation
      5: true, // OnlyLoadAppFromAsar
      6: false, // LoadBrowserProcessSpecificV8Snapshot
      7: false, // GrantFileProtocolExtraPrivileges: the screens are app://loket/ pages, none is file://
    });
    expect(fuseConfig('win32', 'x64')).toEqual(fuseConfig('linux', 'arm64'));
    expect(fuseConfig('darwin', 'arm64')).toMatchObject({ resetAdHocDarwinSignature: true });
  });

  it('finds the packaged executable on each platform', async () => {
    const { electronBinary } = await load<FusesHook>('scripts/electron-fuses.mjs');
    const packager = { appInfo: { productFilename: 'Loket' }, executableName: 'loket' };
    expect(electronBinary({ appOutDir: '/r/linux-unpacked', electronPlatformName: 'linux', packager })).toBe(
      join('/r/linux-unpacked', 'loket'),
    );
    expect(electronBinary({ appOutDir: '/r/win-unpacked', electronPlatformName: 'win32', packager })).toBe(
      join('/r/win-unpacked', 'Loket.exe'),
    );
    expect(electronBinary({ appOutDir: '/r/mac', electronPlatformName: 'darwin', packager })).toBe(
      join('/r/mac', 'Loket.app'),
    );
  });

  it('the afterPack hook flips the fuse wire of the packaged executable (a stand-in binary with a real wire)', async () => {
    const { afterPack } = await load<FusesHook>('scripts/electron-fuses.mjs');
    const binary = join(dir.path, 'loket');
    // Electron's defaults: RunAsNode, NODE_OPTIONS and --inspect on; integrity and asar-only off.
    const wire = [ON, OFF, ON, ON, OFF, OFF, OFF, ON];
    writeFileSync(
      binary,
      Buffer.concat([
        Buffer.from('\x7fELF stand-in…'),
        Buffer.from(SENTINEL),
        Buffer.from([1, wire.length, ...wire]),
        Buffer.from('…'),
      ]),
    );
    await afterPack({
      appOutDir: dir.path,
      electronPlatformName: 'linux',
      arch: 1, // electron-builder's Arch.x64
      packager: { appInfo: { productFilename: 'Loket' }, executableName: 'loket' },
    });
    const { getCurrentFuseWire } = require('@electron/fuses') as {
      getCurrentFuseWire(file: string): Promise<Record<string, unknown>>;
    };
    expect(await getCurrentFuseWire(binary)).toEqual({
      version: '1',
      0: OFF,
      1: ON,
      2: OFF,
      3: OFF,
      4: ON,
      5: ON,
      6: OFF,
      // GrantFileProtocolExtraPrivileges, on by default: turned off.
      7: OFF,
    });
  });

  it('a binary without a fuse wire fails the packaging, it is not skipped', async () => {
    const { afterPack } = await load<FusesHook>('scripts/electron-fuses.mjs');
    writeFileSync(join(dir.path, 'plain'), 'not electron');
    await expect(
      afterPack({
        appOutDir: dir.path,
        electronPlatformName: 'linux',
        arch: 1,
        packager: { appInfo: { productFilename: 'Loket' }, executableName: 'plain' },
      }),
    ).rejects.toThrow(/sentinel/);
  });
});
