// Runs after the load event: lets the page finish what load started. First one timer turn (so callbacks that
// load handlers queued with setTimeout run, and issue their requests), then until the DOM has not changed for
// arg.quietMs (scripts rendering what they fetched), at most arg.maxMs. Returns true when it ended quiet.
(async function trawlSettle(arg) {
  'use strict';
  const start = performance.now();
  let last = start;
  const observer = new MutationObserver(() => {
    last = performance.now();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  await new Promise((resolve) => setTimeout(resolve, 0));
  while (performance.now() - last < arg.quietMs && performance.now() - start < arg.maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  observer.disconnect();
  return performance.now() - last >= arg.quietMs;
})
