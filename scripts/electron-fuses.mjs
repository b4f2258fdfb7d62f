// electron-builder `afterPack` hook (scripts/electron-builder.config.mjs): flips the Electron fuses of the packaged
// executable with @electron/fuses, after packing and before signing and the installers. Fuses are switches compiled
// into the Electron binary that a packaged app can turn off for good, whatever the command line or environment says.
import path from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import electronBuilder from 'electron-builder';

/**
 * Every fuse this Electron has, set explicitly (strictlyRequireAllFuses: an Electron with a fuse we have not decided
 * on fails the packaging instead of inheriting its default).
 * @param {string} platform electron-builder's electronPlatformName: 'linux', 'win32', 'darwin' or 'mas'
 * @param {string} arch 'x64', 'arm64', ...
 */
export function fuseConfig(platform, arch) {
  return {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: true,
    // Flipping fuses breaks the ad-hoc signature Apple silicon needs; sign it again (a real signature comes later).
    resetAdHocDarwinSignature: (platform === 'darwin' || platform === 'mas') && arch === 'arm64',
    // ELECTRON_RUN_AS_NODE would turn Loket's executable into a plain Node.js any program could run code with.
    [FuseV1Options.RunAsNode]: false,
    // Cookies on disk encrypted with the OS keychain's key.
    [FuseV1Options.EnableCookieEncryption]: true,
    // NODE_OPTIONS and --inspect would let anyone who can start Loket inject code into its main process.
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    // app.asar checked against the hash in the executable (macOS and Windows; Electron does not do it on Linux).
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    // Only app.asar is loaded, never an app/ folder or a loose file put next to it.
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    // No custom V8 snapshot.
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
    // Off: the screens come from app://loket/ (src-main/electron/app-protocol.ts), so no page is a file:// one, and
    // file:// gets none of the extra privileges Chromium gives it by default (docs/desktop.md).
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/** The packaged executable (or .app bundle) that holds the fuse wire. */
export function electronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${name}.app`);
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${name}.exe`);
  return path.join(appOutDir, packager.executableName);
}

/** electron-builder's Arch enum (a number) as a name. */
function archName(arch) {
  if (typeof arch === 'string') return arch;
  return electronBuilder.Arch[arch];
}

/**
 * @param {import('electron-builder').AfterPackContext} context
 * @param {(file: string, config: object) => Promise<unknown>} [flip] @electron/fuses' flipFuses (a test passes its own)
 */
export async function afterPack(context, flip = flipFuses) {
  const binary = electronBinary(context);
  const config = fuseConfig(context.electronPlatformName, archName(context.arch));
  await flip(binary, config);
  console.log(`  • fuses flipped in ${path.basename(binary)}`);
}

export default afterPack;
