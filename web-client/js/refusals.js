// What a refused request says to the player. The server's error `message`
// for a move the rules refuse is part of the contract (protocol.md,
// "Errors": "The messages of a refused move"); each known one has its own
// localized text here, so a refusal says why in the player's language. An
// unknown message (a newer server) falls back to the text of its code, and
// an unknown code to the generic text with the server's own words.
//
// Pure: no DOM, so it is unit tested in node (tests/browser/unit).

// code -> server message -> i18n key
export const REFUSALS = {
  invalid_move: {
    'outside the board': 'refuse.outside',
    'no tile there': 'refuse.noTile',
    'a single tile cannot be removed': 'refuse.single',
    'the tiles are not next to each other': 'refuse.notAdjacent',
    'the swap makes no run': 'refuse.noRun',
    'that tile is already selected': 'refuse.alreadySelected',
    'that tile cannot be selected': 'refuse.cannotSelect',
    'select a tile next to the selection': 'refuse.notNextToSelection',
    'that tile is not selected': 'refuse.notSelected',
    'a tile with three or more selected neighbours cannot be unselected': 'refuse.threeNeighbours',
    'unselecting that tile would split the selection': 'refuse.split',
  },
  not_allowed: {
    'the game is over': 'refuse.over',
    'no move left': 'refuse.noMoveLeft',
    'nothing to undo': 'refuse.nothingToUndo',
    'no undo in ranked match-3': 'refuse.noUndoRanked',
    'no undo in this mode': 'refuse.noUndoMode',
    'no hint in this mode': 'refuse.noHintMode',
  },
  unauthorized: {
    'not your game': 'refuse.notYourGame',
  },
  not_found: {
    'no such game': 'refuse.noSuchGame',
  },
  stale: {
    'the game has moved on since your view of it: resume it to see it': 'refuse.movedOn',
  },
};

const BY_CODE = {
  invalid_move: 'err.invalid_move',
  not_allowed: 'err.not_allowed',
  not_found: 'err.not_found',
  // Also another node's write (protocol.md, "Errors"): shown as it stands.
  stale: 'refuse.movedOn',
  disconnected: 'err.disconnected',
};

// {key, vars} of the text for an error {code, message}: t(key, vars).
export function refusalText(err) {
  const code = err && err.code;
  const message = err && typeof err.message === 'string' ? err.message : '';
  const known = Object.hasOwn(REFUSALS, code) && Object.hasOwn(REFUSALS[code], message)
    ? REFUSALS[code][message] : null;
  if (known) return { key: known, vars: {} };
  if (Object.hasOwn(BY_CODE, code)) return { key: BY_CODE[code], vars: {} };
  return { key: 'err.generic', vars: { message: message || code || '' } };
}
