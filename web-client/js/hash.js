// state_hash as protocol.md defines it: FNV-1a 64 over the board as this
// client may see it (one byte per cell, rows top first, hidden cells (-1) as
// 255), then move_count and score as 8-byte little-endian signed integers.
// BigInt keeps the 64-bit multiply exact. Pure module: runs in node too.

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

function mixByte(h, byte) {
  return ((h ^ BigInt(byte & 0xff)) * PRIME) & MASK;
}

function mixInt64(h, value) {
  let v = BigInt.asUintN(64, BigInt(value));
  for (let i = 0; i < 8; i++) {
    h = mixByte(h, Number(v & 0xffn));
    v >>= 8n;
  }
  return h;
}

// FNV-1a 64 over a sequence of bytes; returns a BigInt.
export function fnv1a64(bytes, start = OFFSET) {
  let h = start;
  for (const b of bytes) h = mixByte(h, b);
  return h;
}

// rows: [[row 0], [row 1], ...] with cells 0..K, or -1 for a hidden cell.
export function stateHash(rows, moveCount, score) {
  let h = OFFSET;
  for (const row of rows) {
    for (const cell of row) h = mixByte(h, cell < 0 ? 255 : cell);
  }
  h = mixInt64(h, moveCount);
  h = mixInt64(h, score);
  return h.toString(16).padStart(16, '0');
}
