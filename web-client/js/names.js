// What a name people see (a player's, a competition's) may not be, as the
// server checks it (docs/protocol.md, "Fields"): only spaces and invisible
// characters (it would show as nothing), or holding an invisible character
// that makes a look-alike of another name. Checked before asking, so the
// player reads why in their language; the server checks it again.
//
// Pure: no DOM, so it is unit tested in node (tests/browser/unit).

// The invisible characters a name may not hold (the server's list).
const REFUSED = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/u;
// What shows nothing by itself: white space, the braille blank, the joiners,
// variation selectors and tags (allowed inside a name, not alone).
const SHOWS_NOTHING = /^[\s\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200D\u2028\u2029\u202F\u205F\u2800\u3000\uFE00-\uFE0F\u{E0000}-\u{E0FFF}\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]*$/u;

// 'invisible', 'nothingVisible' or null (a name that shows).
export function nameProblem(text) {
  if (REFUSED.test(text)) return 'invisible';
  if (SHOWS_NOTHING.test(text)) return 'nothingVisible';
  return null;
}

// The i18n key of a problem's text.
export const NAME_PROBLEM_KEYS = {
  invisible: 'name.err.invisible',
  nothingVisible: 'name.err.nothingVisible',
};
