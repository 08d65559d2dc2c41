// The life of a page that draws itself at once and again when its data has
// come (pages/race.js, pages/replay.js): render() now and after every change
// of language; load() runs in the background and renders again itself
// (unless stop() has run by then: the page checks its own flag). The
// returned clean-up runs stop() and stops following the language.

import { onLangChange } from './i18n.js';

export function loadingPage(render, load, stop) {
  load();
  render();
  const offLang = onLangChange(render);
  return () => {
    stop();
    offLang();
  };
}
