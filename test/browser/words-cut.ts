// Words of a table cut across lines (a letter or two on the next line), which a reader cannot
// take in at a glance: dates, names and addresses should break between words only.
/** Run in the page as source text (as flow.ts does): every word of the table at `selector` whose letters sit on more than one line. */
export function wordsCut(selector: string): string {
  return `(() => {
  const cut = [];
  const table = document.querySelector(${JSON.stringify(selector)});
  const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement && node.parentElement.closest('.visually-hidden, caption')) continue;
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (tops.size > 1) cut.push(match[0]);
    }
  }
  return cut;
})()`;
}
