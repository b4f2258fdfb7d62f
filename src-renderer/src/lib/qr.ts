import QRCode from 'qrcode';

export interface QrImage {
  /** A PNG data URL (the CSP allows data: images). */
  src: string;
  /** Width and height in CSS pixels: a whole number of device pixels per module, so scanners read it sharp. */
  size: number;
}

/** The quiet zone the QR specification asks for, in modules. */
const MARGIN = 4;
const OPTIONS = { errorCorrectionLevel: 'M' } as const;

/** The code's width in modules, its quiet zone included. */
export function qrModules(text: string): number {
  return QRCode.create(text, OPTIONS).modules.size + 2 * MARGIN;
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

async function draw(text: string, scale: number): Promise<string> {
  return QRCode.toDataURL(text, {
    ...OPTIONS,
    margin: MARGIN,
    scale,
    color: { dark: '#000000ff', light: '#ffffffff' },
  });
}

/** Draws `text` exactly as given as a QR code, black on white, error correction M, at least `minSize` px wide. */
export async function renderQr(text: string, minSize: number): Promise<QrImage> {
  const modules = qrModules(text);
  const scale = Math.max(1, Math.ceil(minSize / modules));
  return { src: await draw(text, scale), size: modules * scale };
}

/** Draws `text` at `scale` device pixels per module (see fitQr), shown at `pixelRatio` device pixels per CSS pixel. */
export async function renderQrAtScale(text: string, scale: number, pixelRatio = 1): Promise<QrImage> {
  const ratio = pixelRatio > 0 ? pixelRatio : 1;
  return { src: await draw(text, scale), size: (qrModules(text) * scale) / ratio };
}
