// One colour and one shape per tile colour 1..12, so that colours can be
// told apart without seeing colour (the palette starts from Okabe-Ito's).
// Shapes are SVG paths in a 100x100 box, drawn locally: no font needed.

const SVG_NS = 'http://www.w3.org/2000/svg';

function polygon(n, r = 42, rot = -90, cx = 50, cy = 50) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = ((rot + (360 * i) / n) * Math.PI) / 180;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join('L')}Z`;
}

function star(points = 5, outer = 45, inner = 19) {
  const pts = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = ((-90 + (180 * i) / points) * Math.PI) / 180;
    pts.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(52 + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join('L')}Z`;
}

// [name, css colour, symbol colour, path]
export const TILE_STYLES = [
  null,
  ['circle', '#d55e00', '#fff', 'M50,10A40,40 0 1,1 49.9,10Z'],
  ['triangle', '#0072b2', '#fff', polygon(3, 46, -90, 50, 56)],
  ['square', '#f0e442', '#333', 'M16,16H84V84H16Z'],
  ['diamond', '#009e73', '#fff', 'M50,6L94,50L50,94L6,50Z'],
  ['star', '#cc79a7', '#222', star()],
  ['hexagon', '#56b4e9', '#123', polygon(6, 42, 0)],
  ['plus', '#e69f00', '#222', 'M38,10H62V38H90V62H62V90H38V62H10V38H38Z'],
  ['heart', '#7b3fa0', '#fff', 'M50,88L14,52A20,20 0 0,1 50,24A20,20 0 0,1 86,52Z'],
  ['ring', '#8c564b', '#fff', 'M50,8A42,42 0 1,1 49.9,8ZM50,30A20,20 0 1,0 50.1,30Z'],
  ['cross', '#6f6f6f', '#fff', 'M22,8L50,36L78,8L92,22L64,50L92,78L78,92L50,64L22,92L8,78L36,50L8,22Z'],
  ['pentagon', '#1b3a6b', '#fff', polygon(5, 44, -90, 50, 54)],
  ['crescent', '#b5d334', '#222', 'M62,8A42,42 0 1,0 62,92A34,34 0 1,1 62,8Z'],
];

export const MAX_COLORS = TILE_STYLES.length - 1;

export function tileStyle(color) {
  return TILE_STYLES[color] || null;
}

// The name of `color`'s shape ('circle', ...), for words that describe a
// tile (i18n.js's shape.<name>); null past the styles.
export function shapeOf(color) {
  const style = TILE_STYLES[color];
  return style ? style[0] : null;
}

// An <svg> element showing the symbol of `color`.
export function symbolSvg(color) {
  const style = tileStyle(color);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('sym');
  if (style) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', style[3]);
    path.setAttribute('fill-rule', 'evenodd');
    svg.append(path);
  }
  return svg;
}

// CSS rules .c1 ... .c12 (tile colour and symbol colour), added once.
export function installTileStyles(doc = document) {
  if (doc.getElementById('tile-styles')) return;
  const css = TILE_STYLES.map((s, i) => (s
    ? `.tile.c${i} .face{background:${s[1]}}.tile.c${i} .sym path{fill:${s[2]}}`
    : '')).join('\n');
  const el = doc.createElement('style');
  el.id = 'tile-styles';
  el.textContent = css;
  doc.head.append(el);
}
