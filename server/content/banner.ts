/**
 * The Contact Us banner picture, made here rather than downloaded: an SVG scene of the electrical industry
 * (an evening sky, hills, a factory with lit windows and smoking chimneys, a line of transmission towers)
 * rendered by sharp to a 2400 × 800 JPEG. The same bytes come out on every run with the same sharp build.
 */
import { createRequire } from 'node:module';

/** sharp (native, a quarter of a second to load) is loaded when a picture is first drawn or resized, not at start. */
const sharp = (...args: Parameters<typeof import('sharp').default>): ReturnType<typeof import('sharp').default> =>
  (createRequire(import.meta.url)('sharp') as typeof import('sharp').default)(...args);

export const BANNER_WIDTH = 2400;
const BANNER_HEIGHT = 800;
const GROUND = 690;

/** A small deterministic generator, so that the scene is the same on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const f = (n: number) => Number(n.toFixed(1));

function sky(): string {
  return `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#08152e"/>
      <stop offset="0.38" stop-color="#1d3b6b"/>
      <stop offset="0.66" stop-color="#6b4a78"/>
      <stop offset="0.8" stop-color="#d9793f"/>
      <stop offset="0.9" stop-color="#f3b65b"/>
    </linearGradient>
    <radialGradient id="sun" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#fff4d2"/>
      <stop offset="0.35" stop-color="#ffd27a" stop-opacity="0.9"/>
      <stop offset="1" stop-color="#f08a3c" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#10152a"/>
      <stop offset="1" stop-color="#05070f"/>
    </linearGradient>
    <filter id="blur"><feGaussianBlur stdDeviation="14"/></filter>
  </defs>
  <rect width="${BANNER_WIDTH}" height="${BANNER_HEIGHT}" fill="url(#sky)"/>
  <circle cx="1720" cy="600" r="260" fill="url(#sun)"/>
  <circle cx="1720" cy="600" r="70" fill="#fff1c9" opacity="0.95"/>`;
}

function stars(random: () => number): string {
  let out = '';
  for (let i = 0; i < 140; i++) {
    const x = random() * BANNER_WIDTH;
    const y = random() * 300;
    out += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(0.8 + random() * 1.6)}" fill="#ffffff" opacity="${f(0.25 + random() * 0.6)}"/>`;
  }
  return out;
}

function hills(): string {
  return `
  <path d="M0 560 C 300 500, 520 540, 760 520 S 1180 470, 1460 530 S 1980 500, 2400 540 L 2400 ${GROUND} L 0 ${GROUND} Z" fill="#2b2f4f" opacity="0.85"/>
  <path d="M0 610 C 260 585, 560 600, 900 590 S 1500 570, 1900 600 S 2250 590, 2400 600 L 2400 ${GROUND} L 0 ${GROUND} Z" fill="#1b1f38"/>`;
}

/** A factory hall with a sawtooth roof, lit windows and chimneys giving off smoke. */
function factory(
  x: number,
  width: number,
  height: number,
  teeth: number,
  chimneys: number[],
  random: () => number,
): string {
  const top = GROUND - height;
  const tooth = width / teeth;
  let roof = `M${x} ${GROUND} L${x} ${top}`;
  for (let i = 0; i < teeth; i++)
    roof += ` L${f(x + i * tooth + tooth * 0.8)} ${f(top - tooth * 0.45)} L${f(x + i * tooth + tooth * 0.8)} ${top} L${f(x + (i + 1) * tooth)} ${top}`;
  roof += ` L${x + width} ${GROUND} Z`;
  let out = `<path d="${roof}" fill="#0c1022"/>`;
  for (const [index, offset] of chimneys.entries()) {
    const cx = x + offset;
    const chimneyHeight = height * (1.6 + index * 0.35);
    out += `<rect x="${f(cx)}" y="${f(GROUND - chimneyHeight)}" width="${f(width * 0.035)}" height="${f(chimneyHeight)}" fill="#0a0d1c"/>`;
    for (let puff = 0; puff < 5; puff++) {
      const px = cx + width * 0.018 + puff * 38 + random() * 12;
      const py = GROUND - chimneyHeight - 30 - puff * 34;
      out += `<ellipse cx="${f(px)}" cy="${f(py)}" rx="${f(30 + puff * 14)}" ry="${f(18 + puff * 8)}" fill="#c9c3d6" opacity="${f(0.32 - puff * 0.05)}" filter="url(#blur)"/>`;
    }
  }
  const rows = Math.max(1, Math.floor((height - 30) / 34));
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column * 42 + 20 < width - 30; column++) {
      if (random() < 0.45) continue;
      out += `<rect x="${f(x + 20 + column * 42)}" y="${f(top + 18 + row * 34)}" width="22" height="14" fill="#ffcf70" opacity="${f(0.55 + random() * 0.45)}"/>`;
    }
  }
  return out;
}

interface Tower {
  x: number;
  height: number;
  arms: [number, number][];
}

/** A lattice transmission tower: two legs narrowing to the top, X bracing, two cross arms. */
function tower(x: number, height: number): { svg: string; tower: Tower } {
  const base = height * 0.22;
  const waist = height * 0.06;
  const top = GROUND - height;
  const stroke = f(Math.max(1.5, height / 120));
  let d = `M${f(x - base)} ${GROUND} L${f(x - waist)} ${f(top)} L${f(x + waist)} ${f(top)} L${f(x + base)} ${GROUND}`;
  const levels = 7;
  for (let i = 0; i < levels; i++) {
    const y1 = GROUND - (height * i) / levels;
    const y2 = GROUND - (height * (i + 1)) / levels;
    const w1 = base - ((base - waist) * i) / levels;
    const w2 = base - ((base - waist) * (i + 1)) / levels;
    d += ` M${f(x - w1)} ${f(y1)} L${f(x + w2)} ${f(y2)} M${f(x + w1)} ${f(y1)} L${f(x - w2)} ${f(y2)} M${f(x - w2)} ${f(y2)} L${f(x + w2)} ${f(y2)}`;
  }
  const arms: [number, number][] = [];
  for (const [level, reach] of [
    [0.78, 0.36],
    [0.93, 0.26],
  ] as const) {
    const y = GROUND - height * level;
    const span = height * reach;
    d += ` M${f(x - span)} ${f(y)} L${f(x + span)} ${f(y)} L${f(x + waist)} ${f(y + height * 0.05)} M${f(x - span)} ${f(y)} L${f(x - waist)} ${f(y + height * 0.05)}`;
    arms.push([x - span, y], [x + span, y]);
  }
  const svg = `<path d="${d}" stroke="#0b0f1f" stroke-width="${stroke}" fill="none" stroke-linejoin="round"/>`;
  return { svg, tower: { x, height, arms } };
}

/** The sagging conductors between two towers, arm tip to arm tip. */
function conductors(a: Tower, b: Tower): string {
  let out = '';
  a.arms.forEach(([x1, y1], index) => {
    const [x2, y2] = b.arms[index];
    const sag = Math.abs(x2 - x1) * 0.09;
    const mx = (x1 + x2) / 2;
    const my = Math.max(y1, y2) + sag;
    out += `<path d="M${f(x1)} ${f(y1 + 6)} Q${f(mx)} ${f(my)} ${f(x2)} ${f(y2 + 6)}" stroke="#0b0f1f" stroke-width="1.6" fill="none" opacity="0.9"/>`;
  });
  return out;
}

function bannerSvg(): string {
  const random = generator(20261102);
  const parts = [sky(), stars(random), hills()];
  parts.push(factory(120, 520, 150, 6, [90, 210], random));
  parts.push(factory(700, 300, 95, 4, [], random));
  parts.push(factory(1960, 380, 120, 5, [280], random));
  // Towers recede towards the sun: each further one is smaller and closer to the last.
  const towers: Tower[] = [];
  let x = 1080;
  let height = 430;
  for (let i = 0; i < 6; i++) {
    const built = tower(x, height);
    parts.push(built.svg);
    towers.push(built.tower);
    x += height * 0.95;
    height *= 0.72;
  }
  for (let i = 0; i + 1 < towers.length; i++) parts.push(conductors(towers[i], towers[i + 1]));
  // The lines run on to the left edge from the first tower.
  const edge: Tower = {
    x: -200,
    height: 0,
    arms: towers[0].arms.map(([ax, ay]) => [ax - 1280, ay + 40] as [number, number]),
  };
  parts.push(conductors(edge, towers[0]));
  parts.push(
    `<rect x="0" y="${GROUND}" width="${BANNER_WIDTH}" height="${BANNER_HEIGHT - GROUND}" fill="url(#ground)"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${BANNER_WIDTH}" height="${BANNER_HEIGHT}" viewBox="0 0 ${BANNER_WIDTH} ${BANNER_HEIGHT}">${parts.join('')}</svg>`;
}

let rendering: Promise<Buffer> | undefined;

/** The banner as a progressive JPEG; rendered once per process. */
export function bannerJpeg(): Promise<Buffer> {
  rendering ??= sharp(Buffer.from(bannerSvg()))
    .flatten({ background: '#08152e' })
    .jpeg({ quality: 84, progressive: true, mozjpeg: true })
    .toBuffer();
  return rendering;
}
