import QRCode from 'qrcode';

export interface QrImage {
  /** A PNG data URL (the CSP allows data: images). */
  src: string;
  /** Width and height in CSS pixels: a whole number of pixels per module, so scanners read it sharp. */
  size: number;
}

/** The quiet zone the QR specification asks for, in modules. */
const MARGIN = 4;

/**
 * Draws `text` exactly as given as a QR code, black on white, error correction M, at least `minSize` px wide.
 */
export async function renderQr(text: string, minSize: number): Promise<QrImage> {
  const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size + 2 * MARGIN;
  const scale = Math.max(1, Math.ceil(minSize / modules));
  const src = await QRCode.toDataURL(text, {
    errorCorrectionLevel: 'M',
    margin: MARGIN,
    scale,
    color: { dark: '#000000ff', light: '#ffffffff' },
  });
  return { src, size: modules * scale };
}
