import { crc32, deflateSync, inflateSync } from 'node:zlib';

/**
 * Turns an 8-bit RGBA PNG (what Firefox's screenshots are) into a 24-bit RGB PNG laid over
 * white. Why: the Chrome Web Store takes listing screenshots only as JPEG or "24-bit PNG (no
 * alpha)", and JPEG blurs the panel's small text. Handles exactly what Firefox writes
 * (8-bit RGBA, not interlaced) and throws on anything else rather than guess.
 */
export function opaquePng(png: Buffer): Buffer {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  const ihdr = chunks.find((c) => c.type === 'IHDR')?.data;
  if (ihdr?.[8] !== 8 || ihdr[9] !== 6 || ihdr[12] !== 0) throw new Error('opaquePng: expected an 8-bit RGBA, non-interlaced PNG');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));

  const stride = width * 4;
  const out = Buffer.alloc(height * (1 + width * 3));
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    unfilter(filter ?? 0, line, prev);
    const row = y * (1 + width * 3); // filter byte 0 ("none") stays as allocated
    for (let x = 0; x < width; x++) {
      const a = line[x * 4 + 3] ?? 255;
      for (let c = 0; c < 3; c++) out[row + 1 + x * 3 + c] = Math.round(((line[x * 4 + c] ?? 0) * a + 255 * (255 - a)) / 255);
    }
    prev = line;
  }
  const header = Buffer.from(ihdr);
  header[9] = 2; // colour type 2: RGB
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', header), chunk('IDAT', deflateSync(out, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Reverses one scanline's PNG filter in place (RFC 2083 §6; 4 bytes per pixel). */
function unfilter(type: number, line: Buffer, prev: Buffer): void {
  for (let i = 0; i < line.length; i++) {
    const left = i >= 4 ? line[i - 4] ?? 0 : 0;
    const up = prev[i] ?? 0;
    const upLeft = i >= 4 ? prev[i - 4] ?? 0 : 0;
    const p = left + up - upLeft;
    const paeth = Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft) ? left : Math.abs(p - up) <= Math.abs(p - upLeft) ? up : upLeft;
    const add = type === 1 ? left : type === 2 ? up : type === 3 ? (left + up) >> 1 : type === 4 ? paeth : 0;
    line[i] = ((line[i] ?? 0) + add) & 0xff;
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
