// web-client/js/api.js: a GET that a hanging server never answers fails as
// the network would (`network`, which the pages show as "cannot be
// reached", with Retry), instead of leaving a page loading for ever.

import test from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { location: { origin: 'http://tilecrush.test' } };
const { api, limits } = await import('../../../web-client/js/api.js');

test('a GET left unanswered fails as a network failure after the limit', async () => {
  const realFetch = globalThis.fetch;
  let seenSignal = null;
  globalThis.fetch = (url, init) => new Promise((_, reject) => {
    seenSignal = init.signal;
    init.signal.addEventListener('abort', () => reject(init.signal.reason));
  });
  limits.getWithinMs = 50;
  // Node does not keep itself alive for AbortSignal.timeout's timer.
  const alive = setInterval(() => {}, 1000);
  try {
    const started = Date.now();
    await assert.rejects(api.competitions({}), (err) => err.code === 'network' && err.status === 0);
    assert.ok(Date.now() - started < 2000);
    assert.equal(seenSignal.aborted, true);
  } finally {
    clearInterval(alive);
    globalThis.fetch = realFetch;
    limits.getWithinMs = 15000;
  }
});

test('an answer in time is read as before', async () => {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async () => new Response(JSON.stringify({ competitions: [] }), { status: 200 });
  try {
    assert.deepEqual(await api.competitions({}), { competitions: [] });
  } finally {
    globalThis.fetch = realFetch;
  }
});
