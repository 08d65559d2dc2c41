// Copying a text for the player: the clipboard where the page may write
// it, else the text selected on the page for a copy by hand.

// Copies `text`; where the clipboard refuses (permissions, plain http)
// selects `node`'s contents instead. True when it was copied.
export async function copyOrSelect(text, node) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(node);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    return false;
  }
}
