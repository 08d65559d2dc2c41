// What the live region says after a reply (screen readers): the cells a
// move touched, the score change and the end of the game, in one sentence
// list. `t` is i18n.js's t, passed in so that this stays pure (unit tested
// in node, tests/browser/unit).

import { shapeOf } from './symbols.js';

// A tile's colour in words: its shape and its number ("circle, colour 1"),
// since the number alone means nothing to a listener.
export function colourText(color, t) {
  const shape = shapeOf(color);
  return t('kb.colour', { n: color, shape: shape ? t(`shape.${shape}`) : '?' });
}

// A signed count with a real minus sign, as the score's change is said.
const said = (n) => (n < 0 ? `−${-n}` : String(n));

// reply: an `events` message; scoreBefore: the score before it.
export function describeReply(reply, scoreBefore, t) {
  const parts = [];
  let removed = 0;
  let over = null;
  for (const ev of (reply && reply.events) || []) {
    if (ev.kind === 'peek') parts.push(t('say.peek', { col: ev.x + 1, row: ev.y + 1, colour: colourText(ev.color, t) }));
    else if (ev.kind === 'select') parts.push(t('say.select', { col: ev.x + 1, row: ev.y + 1, colour: colourText(ev.color, t) }));
    else if (ev.kind === 'unselect') parts.push(t('say.unselect', { col: ev.x + 1, row: ev.y + 1 }));
    else if (ev.kind === 'remove') removed += ev.cells.length;
    else if (ev.kind === 'game_over') over = ev;
  }
  if (removed > 0) parts.push(t('say.removed', { n: removed }));
  const score = reply && Number.isFinite(reply.score) ? reply.score : scoreBefore;
  const delta = score - scoreBefore;
  if (delta !== 0) parts.push(t('say.score', { delta: delta > 0 ? `+${delta}` : said(delta), total: said(score) }));
  if (over) {
    const final = Number.isFinite(over.final_score) ? over.final_score : score;
    parts.push(t('say.over', { reason: t(`over.${over.reason}`), final }));
  }
  return parts.join(' ');
}
