import QRCode from 'qrcode';

/**
 * A QR code encoded once, ready to draw at any size: an SVG path of its dark modules in a square of `modules` units
 * (the quiet zone included). Encoding is the costly part; drawing the path is one element for the browser.
 */
export interface QrCode {
  /** The exact text encoded. */
  text: string;
  /** The code's width in modules, its quiet zone included: the SVG's viewBox side. */
  modules: number;
  /** The dark modules, one `M x y h n v1 h-n z` rectangle per run of them in a row. */
  path: string;
}

/** The quiet zone the QR specification asks for, in modules. */
const MARGIN = 4;
const OPTIONS = { errorCorrectionLevel: 'M' } as const;

/** Encodes `text` exactly as given, error correction M; throws when it cannot be encoded (empty, too long). */
export function encodeQr(text: string): QrCode {
  const { size, data } = QRCode.create(text, OPTIONS).modules;
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    const offset = row * size;
    let col = 0;
    while (col < size) {
      if (!data[offset + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[offset + col]) col++;
      const run = col - start;
      parts.push(`M${start + MARGIN} ${row + MARGIN}h${run}v1h-${run}z`);
    }
  }
  return { text, modules: size + 2 * MARGIN, path: parts.join('') };
}

/** The code's width in modules, its quiet zone included. */
export function qrModules(text: string): number {
  return encodeQr(text).modules;
}

/**
 * The largest code that fits a square of `available` CSS pixels, quiet zone included: a whole number of device
 * pixels per module (at least one), at `pixelRatio` device pixels per CSS pixel.
 */
export function fitQr(modules: number, available: number, pixelRatio = 1): { scale: number; size: number } {
  const ratio = pixelRatio > 0 ? pixelRatio : 1;
  const scale = Math.max(1, Math.floor((available * ratio) / modules));
  return { scale, size: (modules * scale) / ratio };
}

/** The side in CSS pixels of a code at least `minSize` pixels wide, a whole number of pixels per module. */
export function minQrSize(modules: number, minSize: number): number {
  return Math.max(1, Math.ceil(minSize / modules)) * modules;
}
