import { afterEach, describe, expect, it } from 'vitest';
import { openLoket, type Loket } from '../../src-main/runtime';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-runtime-');
let loket: Loket | undefined;
afterEach(async () => {
  await loket?.close();
  loket = undefined;
});

const gateway = { LOKET_GATEWAY_URL: 'http://127.0.0.1:9', LOKET_APP_ID: 'app', LOKET_APP_KEY: 'k' };

describe('openLoket configuration', () => {
  it('never hands the callback listener an empty key when the signing secret is missing', async () => {
    loket = await openLoket({ dataDir: dir.path, env: { ...gateway, LOKET_SIGN_WITH: 'secret' } });
    await expect(loket.signingKey()).rejects.toThrow(/needs a signing secret/);
    await loket.close();
    loket = await openLoket({
      dataDir: dir.path,
      env: { ...gateway, LOKET_SIGN_WITH: 'secret', LOKET_SIGNING_SECRET: 's3' },
    });
    await expect(loket.signingKey()).resolves.toBe('s3');
  });

  it('reads an empty LOKET_INQUIRY_PATH as no inquiry', async () => {
    loket = await openLoket({ dataDir: dir.path, env: { ...gateway, LOKET_INQUIRY_PATH: '' } });
    expect(loket.client.config.inquiryPath).toBeNull();
  });

  it('refuses a bad LOKET_TIMEOUT_MS, naming it', async () => {
    await expect(openLoket({ dataDir: dir.path, env: { ...gateway, LOKET_TIMEOUT_MS: 'soon' } })).rejects.toThrow(
      /LOKET_TIMEOUT_MS/,
    );
  });
});
