// The QR code is encoded once into one SVG path; the path, drawn as a scanner's camera would see it, reads back as
// the exact text (quiet zone included, whole modules only).
import jsQR from 'jsqr';
import { describe, expect, test } from 'vitest';
import { encodeQr, minQrSize } from '../../../src-renderer/src/lib/qr';

/** Draws the path's rectangles (`M x y h n v1 h-n z`) black on white at `scale` pixels per module, as RGBA. */
function rasterise(modules: number, path: string, scale: number): { pixels: Uint8ClampedArray; side: number } {
  const side = modules * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  const runs = [...path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
  expect(runs.map((m) => m[0]).join('')).toBe(path);
  for (const [, x, y, n] of runs) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row++) {
      for (let col = Number(x) * scale; col < (Number(x) + Number(n)) * scale; col++) {
        const i = (row * side + col) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return { pixels, side };
}

describe('the QR code as one SVG path', () => {
  test.each([
    ['a QRIS string', '00020101021226670016COM.NOBUBANK.WWW01189360050300000879140214520454995303360540510000'],
    ['an e-wallet link', 'https://pay.example.test/ewallet/redirect?order=T01-20260310-0001&token=abc'],
  ])('%s reads back exactly', (_name, text) => {
    const code = encodeQr(text);
    expect(code.text).toBe(text);
    const { pixels, side } = rasterise(code.modules, code.path, 4);
    expect(jsQR(pixels, side, side)?.data).toBe(text);
  });

  test('the quiet zone of four modules is left white on every side', () => {
    const code = encodeQr('LOKET');
    const coords = [...code.path.matchAll(/M(\d+) (\d+)h(\d+)/g)].map(([, x, y, n]) => [+x!, +y!, +n!]);
    expect(Math.min(...coords.map(([x]) => x!))).toBe(4);
    expect(Math.min(...coords.map(([, y]) => y!))).toBe(4);
    expect(Math.max(...coords.map(([x, , n]) => x! + n!))).toBe(code.modules - 4);
    expect(Math.max(...coords.map(([, y]) => y! + 1))).toBe(code.modules - 4);
  });

  test('text that cannot be a code is refused, for the screen to say so', () => {
    expect(() => encodeQr('')).toThrow();
    expect(() => encodeQr('x'.repeat(5000))).toThrow();
  });

  test('a minimum size gives whole pixels per module', () => {
    expect(minQrSize(37, 200)).toBe(37 * 6);
    expect(minQrSize(41, 10)).toBe(41);
  });
});
