// electron-builder configuration (the top level of the repository is fixed, so it lives here and
// `npm run package` passes it with --config). Linux: AppImage and deb; Windows: an NSIS installer. docs/desktop.md.
/** @type {import('electron-builder').Configuration} */
export default {
  appId: 'id.loket.pos',
  productName: 'Loket',
  copyright: 'Loket',
  directories: { output: 'release' },
  // The build (electron-vite: out/main, out/preload, out/renderer) and the catalogues the core reads at run time
  // (resources/payment-methods.json, items.json, found relative to out/main). Production dependencies are added
  // by electron-builder itself.
  // docs/: the screens show sections of it (the keychain's, in the Gateway section and the cashier's notice).
  files: ['out/main/**', 'out/preload/**', 'out/renderer/**', 'resources/**', 'docs/**', 'package.json'],
  asar: true,
  // Native modules cannot be loaded from inside app.asar.
  asarUnpack: ['**/*.node'],
  // scripts/package.mjs rebuilds better-sqlite3 and keytar for Electron itself (and puts the Node builds back after).
  npmRebuild: false,
  nodeGypRebuild: false,
  afterPack: './scripts/electron-fuses.mjs',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    executableName: 'loket',
    synopsis: 'Point of sale for Indonesian shop counters',
    maintainer: 'Loket',
    // The deb's dependencies are electron-builder's defaults, which include libsecret-1-0 for keytar's keychain.
  },
  win: {
    target: ['nsis'],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
  },
};
